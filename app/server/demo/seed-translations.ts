import type { PrefixedLanguage } from '../../lib/languages.ts';

// Issue 26, items 3 and 4: the demo's translated stories, two in Luganda and two in Swahili, each a
// published version of one of the demo's English stories (matched by its English title). A
// translator's own telling: shorter than the English, faithful to it, in everyday words.

export interface SeedTranslation {
  /** The English story's title in seed-data.ts. */
  of: string;
  language: PrefixedLanguage;
  title: string;
  summary: string;
  /** The English story's picture described in this language. */
  imageAlt: string;
  /** HTML body using only h2, p, ul and li. */
  content: string;
}

const BRIAN = 'Front Row, Eyes Open: A Deaf Student’s Week in a Kampala Classroom';
const MOTHER = 'A Mother’s New Language: Learning to Sign with My Daughter in Wakiso';

export const SEED_TRANSLATIONS: SeedTranslation[] = [
  {
    of: BRIAN,
    language: 'lg',
    title: 'Mu Lunyiriri olw’Omu Maaso, Amaaso nga Gatunula: Wiiki y’Omuyizi Kiggala mu Kampala',
    summary:
      'Brian Kato, ow’emyaka kkumi n’omwenda, atubuulira bw’asoma ng’omusomesa ayogera, omuvvuunuzi ng’akola obubonero, era buli ssomo nga lyetaaga okulaba.',
    imageAlt: 'Ekifaananyi ky’ekitabo ekiggule, ekikubiddwa mu langi enjeru ku langi ya bbululu enzirugavu n’eya kakobe',
    content: `<p><em>Nga bw’abuulidde Aisha Namutebi.</em> Erinnya lyange nze Brian Kato. Nnina emyaka kkumi n’omwenda, ndi kiggala, era ndi mu mwaka gwange ogusembayo mu ssomero erya siniya mu Kampala. Nnafiirwa okuwulira nga nnina emyaka mukaaga oluvannyuma lw’okulwala.</p>
<h2>Okufuna olulimi lwange</h2>
<p>Kojja wange bwe yantwala mu ssomero eririna ekitongole ky’abaana bakiggala, byonna byakyuka. Ku nkomerero y’olusoma nnali nkubaganya ebirowoozo ne mukwano gwange ku mupiira mu Lulimi lw’Obubonero olwa Uganda. Okuba n’olulimi kyantegeeza nti nsobola okubuuza ebibuuzo, era okubuuza bwe kuyiga.</p>
<h2>Essomo eddungi bwe lifaanana</h2>
<p>Kati ndi mu kibiina omuli n’abayizi abawulira. Ebintu ebitono bikola enjawulo ennene:</p>
<ul>
<li>Abasomesa okutunula mu kibiina nga boogera, so si ku lubaawo.</li>
<li>Ebiwandiiko okugabanyizibwa ng’essomo terinnatandika.</li>
<li>Vidiyo eziriko ebigambo wansi.</li>
<li>Banange okunkwatako ku kibegabega mu kifo ky’okuleekaana erinnya lyange.</li>
</ul>
<p>Sisaba kusaasirwa. Nsaba omukisa gwe gumu okulaba ekyo abalala kye bawulira.</p>`,
  },
  {
    of: MOTHER,
    language: 'lg',
    title: 'Olulimi Olupya olwa Maama: Okuyiga Obubonero ne Muwala Wange e Wakiso',
    summary:
      'Maama e Wakiso atubuulira bwe yayiga Olulimi lw’Obubonero olwa Uganda ng’amaze okukitegeera nti muwala we kiggala, n’engeri amaka gonna gye gaakyukamu.',
    imageAlt: 'Ekifaananyi ky’omutima, ekikubiddwa mu langi enjeru ku langi ya pinka enzirugavu n’eya kakobe',
    content: `<p>Muwala wange bwe yali ng’aweza emyaka ebiri, nnakitegeera nti tawulira. Okusooka nnakaaba, kubanga nnali sikimanyi nti tusobola okwogera mu ngeri endala.</p>
<h2>Ekigambo ekisooka</h2>
<p>Omusomesa w’obubonero yatandika okutukyalira buli wiiki. Akabonero ak’olubereberye muwala wange ke yakola kaali “maama”. Nnasanyuka nnyo, kubanga nnamanya nti twali tutandise okutegeeragana.</p>
<h2>Amaka gonna gayiga</h2>
<p>Kati bajjajja, baganda be ne baliraanwa bayiga obubonero obwangu: “lya”, “nnyumba”, “weebale”. Nkubiriza buli muzadde alina omwana kiggala: tandika leero, ne bw’oba omanyi obubonero bubiri bwokka.</p>`,
  },
  {
    of: BRIAN,
    language: 'sw',
    title: 'Mbele Darasani, Macho Wazi: Wiki ya Mwanafunzi Kiziwi Darasani Kampala',
    summary:
      'Brian Kato, mwenye umri wa miaka kumi na tisa, anatueleza jinsi anavyojifunza mwalimu akiongea, mkalimani akitumia ishara, na kila somo likitegemea kuona.',
    imageAlt:
      'Mchoro wa kitabu kilichofunguliwa, uliochorwa kwa rangi nyeupe juu ya mandharinyuma ya buluu iliyokolea hadi zambarau',
    content: `<p><em>Kama alivyomsimulia Aisha Namutebi.</em> Jina langu ni Brian Kato. Nina umri wa miaka kumi na tisa, mimi ni kiziwi, na niko katika mwaka wangu wa mwisho wa shule ya sekondari mjini Kampala. Nilipoteza uwezo wa kusikia baada ya kuugua nikiwa na miaka sita.</p>
<h2>Kupata lugha yangu</h2>
<p>Mjomba wangu aliponipeleka katika shule yenye kitengo cha wanafunzi viziwi, kila kitu kilibadilika. Mwishoni mwa muhula nilikuwa nikibishana na rafiki yangu kuhusu mpira wa miguu kwa Lugha ya Ishara ya Uganda. Kuwa na lugha kulimaanisha ningeweza kuuliza maswali, na kuuliza maswali ndiyo kujifunza.</p>
<h2>Somo zuri linavyoonekana</h2>
<p>Sasa niko katika darasa jumuishi pamoja na wanafunzi wanaosikia. Mambo madogo huleta tofauti kubwa:</p>
<ul>
<li>Walimu kuangalia darasa wanapoongea, si ubao.</li>
<li>Maelezo kutolewa kabla ya somo kuanza.</li>
<li>Video zenye manukuu.</li>
<li>Wenzangu kunigusa begani badala ya kupiga kelele jina langu.</li>
</ul>
<p>Siombi huruma. Naomba nafasi ile ile ya kuona kile ambacho wengine wanasikia.</p>`,
  },
  {
    of: MOTHER,
    language: 'sw',
    title: 'Lugha Mpya ya Mama: Kujifunza Ishara Pamoja na Binti Yangu huko Wakiso',
    summary:
      'Mama mmoja wa Wakiso anasimulia jinsi alivyojifunza Lugha ya Ishara ya Uganda baada ya kugundua kwamba binti yake ni kiziwi, na jinsi familia nzima ilivyobadilika.',
    imageAlt: 'Mchoro wa moyo, uliochorwa kwa rangi nyeupe juu ya mandharinyuma ya waridi iliyokolea hadi zambarau',
    content: `<p>Binti yangu alipofikisha miaka miwili, niligundua kwamba hasikii. Mwanzoni nililia, kwa sababu sikujua kwamba tunaweza kuzungumza kwa njia nyingine.</p>
<h2>Neno la kwanza</h2>
<p>Mwalimu wa lugha ya ishara alianza kututembelea kila wiki. Ishara ya kwanza aliyoifanya binti yangu ilikuwa “mama”. Nilifurahi sana, kwa sababu nilijua tumeanza kuelewana.</p>
<h2>Familia nzima inajifunza</h2>
<p>Sasa bibi, kaka zake na majirani wanajifunza ishara rahisi: “kula”, “nyumbani”, “asante”. Ninamhimiza kila mzazi mwenye mtoto kiziwi: anza leo, hata kama unajua ishara mbili tu.</p>`,
  },
];
