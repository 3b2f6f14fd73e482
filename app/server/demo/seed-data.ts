import type { Collection } from '../../lib/collections.ts';
import type { ASSIGNABLE_ROLES } from '../../lib/permissions.ts';
import { DEFAULT_SERVICE_IDS, type DefaultServiceId } from '../../lib/services.ts';
import { DEFAULT_FOUNDER, DEFAULT_SERVICES, type StaffProfileText } from '../site/site-defaults.server.ts';

/**
 * Demo content for a fresh site (DEMO_CONTENT on): staff authors, stories (blogs), news and resources,
 * each stored with demo = 1 so the super admin can remove them in one action. The founder's profile is
 * the site's run-time default (../site-defaults.server.ts); the seed stores it as it is.
 *
 * Everything here is fictional. People named in stories are invented; numbers about reach are
 * the organisation's own (e.g. "our workshops reached ...") and never presented as official
 * statistics. Links only point to `.example` domains.
 */

export type Motif = 'hands' | 'ear' | 'people' | 'book' | 'mic' | 'laptop' | 'heart' | 'megaphone' | 'school' | 'globe';

/** An illustration drawn by `renderSeedImageSvg`: a white pictogram on a two-colour gradient. */
export interface SeedImage {
  alt: string;
  motif: Motif;
  /** Gradient start colour (hex); dark enough for white shapes to meet 4.5:1 contrast. */
  from: string;
  /** Gradient end colour (hex); dark enough for white shapes to meet 4.5:1 contrast. */
  to: string;
}

export interface SeedArticle {
  collection: Collection;
  /** At most 100 characters. */
  title: string;
  /** 120-200 characters, plain text. */
  summary: string;
  category: string;
  /** One of SEED_AUTHORS' emails. */
  authorEmail: string;
  /** 2-6 short lowercase tags. */
  tags: string[];
  /** HTML body using only h2, h3, p, strong, em, ul, ol, li, blockquote and a[href]. */
  content: string;
  /** Issue 26: its easy-read version (plain text, decision 033), for some. */
  easyRead?: string;
  /** How long ago it was published, in days (distinct across all articles). */
  daysAgo: number;
  image: SeedImage;
}

export interface SeedAuthor extends StaffProfileText {
  role: (typeof ASSIGNABLE_ROLES)[number];
}

const GRACE = DEFAULT_FOUNDER.email;
const DANIEL = 'daniel.ssempala@tdg-uganda.example';
const AISHA = 'aisha.namutebi@tdg-uganda.example';

export const SEED_AUTHORS: SeedAuthor[] = [
  { ...DEFAULT_FOUNDER, role: 'ADMIN' },
  {
    name: 'Daniel Ssempala',
    email: DANIEL,
    role: 'AUTHOR',
    title: 'Programmes Lead',
    bio: 'Daniel leads TDG Uganda’s training programmes and teaches digital skills to young people with disabilities.',
    fullBio:
      'Daniel is a wheelchair user and a digital-skills trainer who has taught computer, design and online-work courses in Kampala and Gulu. As Programmes Lead he runs the digital skills course, school partnerships and workplace workshops. He writes about accessible transport, employment and the practical side of inclusion.',
    twitter: 'https://x.example/danielssempala',
    linkedin: 'https://www.linkedin.example/in/daniel-ssempala',
  },
  {
    name: 'Aisha Namutebi',
    email: AISHA,
    role: 'EDITOR',
    title: 'Communications Officer',
    bio: 'Aisha is a hard-of-hearing writer who edits TDG Uganda’s stories and news and looks after our storytelling programme.',
    fullBio:
      'Aisha has been hard of hearing since her early teens and uses hearing aids, captions and lip-reading every day. She works with contributors across Uganda to shape their stories in writing, sign language video and voice notes. Before joining TDG Uganda she worked as a features writer and radio producer in Kampala.',
    linkedin: 'https://www.linkedin.example/in/aisha-namutebi',
  },
];

const BLOGS: SeedArticle[] = [
  {
    collection: 'blogs',
    title: 'Front Row, Eyes Open: A Deaf Student’s Week in a Kampala Classroom',
    easyRead: `Brian is 19. He is Deaf. He goes to school in Kampala.

When he was small, he could not follow the lessons. The teachers talked. He did not understand. Some people thought he was slow. He was not slow. Nobody signed to him.

Now his school is different. Here is what helps him learn:

- He sits in the front row.
- The teacher faces the class when she talks.
- Some teachers learn signs.
- Friends share their notes.

Brian wants to go to university. He says: "Deaf students can learn. We need teachers who look at us."`,
    summary:
      'Nineteen-year-old Brian Kato tells us what learning looks like when your teacher talks, your interpreter signs, and every single lesson depends on being able to see.',
    category: 'education',
    authorEmail: AISHA,
    tags: ['education', 'sign language', 'youth', 'deaf culture', 'inclusion'],
    daysAgo: 3,
    image: {
      alt: 'Illustration of an open book drawn in white lines on a deep indigo-to-violet background',
      motif: 'book',
      from: '#3730a3',
      to: '#4c1d95',
    },
    content: `<p><em>As told to Aisha Namutebi.</em> My name is Brian Kato. I am nineteen, I am Deaf, and I am in my final year at a secondary school in Kampala. I lost my hearing after an illness when I was six. For two years after that, I sat in a primary classroom where everybody talked and I understood almost nothing. I learned to smile and copy from my neighbour’s book. Teachers thought I was slow. I was not slow. I was shut out.</p>
<h2>Finding my language</h2>
<p>Everything changed when my uncle took me to a school with a unit for deaf learners. On my first day, a boy in the corridor signed “What is your name?” and I did not know how to answer. By the end of the term I was arguing with him about football in Ugandan Sign Language. Having a language meant I could finally ask questions, and asking questions is what learning really is.</p>
<h2>What a good lesson looks like</h2>
<p>Now I am in an inclusive class with hearing students. Some days are very good. My chemistry teacher learned basic signs and always writes key words on the board before she explains them. When we have an interpreter, I sit in the front row, where I can see the interpreter, the teacher and the board at the same time. Small things make a big difference:</p>
<ul>
<li>Teachers facing the class when they speak, not the board.</li>
<li>Notes shared before the lesson, so I can watch instead of copying.</li>
<li>Videos with captions switched on.</li>
<li>Classmates who tap my shoulder instead of shouting my name.</li>
</ul>
<p>Other days are hard. When the interpreter is sick there is nobody to replace her, and I spend the day reading a textbook alone. Group discussions move fast and nobody waits for me. I am tired at the end of every day, because watching is harder work than people think.</p>
<blockquote>I do not need people to feel sorry for me. I need the same lesson everyone else gets, in a language I can see.</blockquote>
<p>My dream is to study accounting at university. I know there will be more barriers there, but I also know that they are barriers, not limits. If you are a teacher reading this, learn ten signs this term. Start with “hello”, “question” and “well done”. You will be surprised how much it means.</p>`,
  },
  {
    collection: 'blogs',
    title: 'A Mother’s New Language: Learning to Sign with My Daughter in Wakiso',
    summary:
      'When her daughter was found to be deaf, Sarah Nalwoga joined a Saturday sign language class for parents in Wakiso. A year later, her family dinner table is the liveliest in the village.',
    category: 'community',
    authorEmail: GRACE,
    tags: ['sign language', 'families', 'community', 'deaf culture', 'education'],
    daysAgo: 9,
    image: {
      alt: 'Illustration of a heart drawn in white lines on a deep rose-to-plum background',
      motif: 'heart',
      from: '#831843',
      to: '#4c1d95',
    },
    content: `<p>When Sarah Nalwoga’s daughter, Joan, was three, a nurse at a health centre in Wakiso told her that the little girl was deaf. Sarah remembers walking home in silence. “I thought, how will she ever talk to me? How will I teach her anything?” she says. “Nobody told me that there was a whole language waiting for us.”</p>
<p>For a year, the family communicated with pointing and a few home signs. Joan was frustrated and often cried at bedtime. Then a neighbour who had attended one of our community sessions told Sarah about a free Ugandan Sign Language class for parents that meets every Saturday morning in a church hall near her home.</p>
<h2>Saturday mornings</h2>
<p>The class started with eight mothers, two fathers and one grandmother. Our facilitator, who is Deaf herself, began with the signs families use most: eat, sleep, wash, pain, love, come here. “The first time Joan signed ‘mummy’ back to me, I had to step outside so she would not see me crying,” Sarah says, laughing now.</p>
<p>Learning was not easy. Sarah sells vegetables at a market stall and has little free time. She practised with the other parents in a WhatsApp group, sharing short videos of new signs, and she stuck paper drawings of signs on the wall next to the water jerrycans so the whole family could learn. Joan’s older brothers picked up the signs faster than anyone.</p>
<blockquote>“Sign language did not only help Joan. It changed how our whole family listens to each other.”</blockquote>
<h2>Why families matter</h2>
<p>Most deaf children are born to hearing parents, and the early years are when a child needs language the most. When parents sign, children arrive at school ready to learn instead of starting from nothing. Parents’ groups also break the isolation many families feel and challenge the old belief that deafness is a curse or a punishment.</p>
<p>Today Joan is six and attends a primary school with a unit for deaf learners. Sarah has become a volunteer, welcoming new parents to the Saturday class. Her advice is simple: “Do not wait. Start with one sign a day. Your child is already talking to you. You just need to learn how to listen with your eyes.”</p>`,
  },
  {
    collection: 'blogs',
    title: 'Boda-Bodas, Ramps and Taxi Stages: Getting Around Kampala in a Wheelchair',
    summary:
      'Our Programmes Lead Daniel Ssempala describes his daily commute across Kampala, and the simple changes that would let wheelchair users travel with safety and dignity.',
    category: 'advocacy',
    authorEmail: DANIEL,
    tags: ['accessibility', 'transport', 'wheelchair users', 'advocacy', 'inclusion'],
    daysAgo: 16,
    image: {
      alt: 'Illustration of a megaphone with sound lines drawn in white on a deep navy-to-indigo background',
      motif: 'megaphone',
      from: '#1e3a8a',
      to: '#3730a3',
    },
    content: `<p>Every weekday I travel from my home in Nansana to our training space in Kampala. The distance is not long. The journey is. Like many wheelchair users, I plan my day around one question: how will I get there, and how will I get back?</p>
<h2>The boda-boda question</h2>
<p>Boda-bodas are the fastest way to move in this city, and for many of us they are also the most complicated. I can transfer from my chair to the back of a motorcycle, but then my folded wheelchair has to travel too. Some riders are brilliant. They help me balance the chair, they ride slowly, and they wait while I transfer at the other end. Others refuse me before I have finished explaining, or ask for double the fare because of the chair.</p>
<p>I now have a short list of riders I trust, and I call them in advance. That works for me, but it should not depend on personal phone numbers. Riders’ associations could include disability awareness in their safety briefings. A few minutes on how to assist a passenger, and on asking before touching someone’s wheelchair, would change a lot.</p>
<h2>Taxis, kerbs and stairs</h2>
<p>Minibus taxis are harder still. The doors are narrow, the steps are high and conductors are under pressure to load quickly. At the taxi park, open drainage channels, broken pavements and parked cars block the way. Many buildings in town have a ramp at the front but stairs to the lift, or a ramp so steep that nobody could climb it without help.</p>
<blockquote>Accessibility is not a favour. It is the difference between taking part in city life and watching it from the roadside.</blockquote>
<h2>What would help</h2>
<ul>
<li>Kerb cuts and level crossings at busy taxi stages and markets.</li>
<li>Ramps built to a gentle slope, with handrails, and kept clear of goods.</li>
<li>Disability awareness in training for boda-boda riders and taxi conductors.</li>
<li>Accessible toilets in public buildings that are actually unlocked.</li>
</ul>
<p>The Persons with Disabilities Act 2020 already expects public buildings and services to be accessible. The law is there; now we need builders, planners and drivers to act on it. If you manage a building, try this: borrow a wheelchair for an hour and try to enter, find the toilet and leave. Then call us. We would be glad to help you fix what you find.</p>`,
  },
  {
    collection: 'blogs',
    title: 'Seeing the Job, Not the Eyes: Job-Hunting with Low Vision in Jinja',
    summary:
      'Ronald Waiswa has a diploma, strong references and low vision. He shares what two years of job interviews in Jinja taught him about employers, assumptions and himself.',
    category: 'personal-experience',
    authorEmail: AISHA,
    tags: ['employment', 'low vision', 'youth', 'digital skills', 'inclusion'],
    daysAgo: 24,
    image: {
      alt: 'Illustration of an open laptop drawn in white lines on a deep teal-to-green background',
      motif: 'laptop',
      from: '#134e4a',
      to: '#065f46',
    },
    content: `<p><em>As told to Aisha Namutebi.</em> I finished my diploma in business administration with good marks. I can see shapes, colours and large print, and with my phone’s zoom and a screen reader I can do almost anything on a computer. But for two years after college, I could not get past the first five minutes of a job interview.</p>
<h2>The moment the room changes</h2>
<p>It usually happened when I held a paper close to my face to read it. The interviewer’s questions would change. Instead of asking about bookkeeping or customer care, they asked how I would find the office, whether I could use a computer, who would help me. One manager told me kindly that the job was “too risky” for me. Another never called back after I asked for the written test in larger print.</p>
<p>So I started to hide my low vision. I walked the route to each interview the day before, so nobody would see me counting steps. I stopped asking for adjustments. That did not work either, because then I struggled with small-print forms and looked careless.</p>
<h2>What changed</h2>
<p>A friend introduced me to TDG Uganda’s digital skills training. I learned to use accessibility features properly, including magnification, high contrast and text-to-speech, and I practised explaining them in one confident sentence: “I have low vision; I use a screen magnifier and I need documents in digital form, and then I work like anyone else.”</p>
<p>The training team also helped me prepare a short portfolio with spreadsheets I had built. At my next interview, with a small logistics company in Jinja, I showed my work before anyone could ask what I could not do. I was offered a three-month trial. That was eleven months ago. I now manage their delivery records.</p>
<blockquote>Employers worry about the wrong things. My eyes were never the problem. Their assumptions were.</blockquote>
<p>To employers: ask candidates what they need, not what they cannot do. Most adjustments cost little or nothing. Sending me a document by email instead of printing it took my manager ten seconds. To other job-seekers with disabilities: know your tools, show your work, and do not apologise for needing access.</p>`,
  },
  {
    collection: 'blogs',
    title: 'Between Two Languages: A Day with a Sign Language Interpreter in Masaka',
    summary:
      'From a morning clinic appointment to an evening church service, interpreter Esther Namirembe spends her days making sure Deaf people in Masaka are part of every conversation.',
    category: 'community',
    authorEmail: GRACE,
    tags: ['sign language', 'interpreters', 'deaf culture', 'community', 'accessibility'],
    daysAgo: 33,
    image: {
      alt: 'Illustration of two hands signing drawn in white lines on a deep rust-to-brown background',
      motif: 'hands',
      from: '#9a3412',
      to: '#7c2d12',
    },
    content: `<p>At half past seven in the morning, Esther Namirembe is already standing outside a health centre in Masaka, waiting for her first client of the day. She has worked as a Ugandan Sign Language interpreter for nine years. “People think interpreting is just moving your hands,” she says. “It is really about carrying meaning, respectfully, from one world into another.”</p>
<h2>Morning: the clinic</h2>
<p>Her first appointment is with a young Deaf mother bringing her baby for immunisation. Without an interpreter, the mother would rely on gestures and guesswork to understand when the next vaccine is due. Esther stands beside the nurse so the mother can see both faces at once, and she interprets everything, including the nurse’s jokes. “If the hearing person laughs, the Deaf person deserves to know why,” she explains.</p>
<h2>Midday: the savings group</h2>
<p>Late in the morning she interprets at a meeting where a group of Deaf tailors is registering their savings group. The vocabulary is technical, about constitutions, bank accounts and signatories, and some words have no established sign. Esther agrees signs with the group at the start and fingerspells carefully when needed. Professional interpreters, she says, prepare like teachers: she read the registration forms the night before.</p>
<h2>Evening: church</h2>
<p>Her evening is spent at a church service, standing at the front for almost two hours. This part is voluntary. “Faith is community,” she says. “Deaf people should not sit at the back watching lips they cannot read.”</p>
<blockquote>“Good interpreting is invisible. The conversation should belong to the people having it, not to me.”</blockquote>
<p>The work is tiring, physically and mentally. In long sessions interpreters usually swap every twenty to thirty minutes, but there are few trained interpreters around Masaka and Esther often works alone. She would like to see more young people train, especially the hearing children of Deaf parents, who grew up with the language.</p>
<h2>How you can help</h2>
<ul>
<li>Book interpreters early and share materials in advance.</li>
<li>Pay interpreters fairly; this is skilled professional work.</li>
<li>Speak to the Deaf person, not to the interpreter.</li>
<li>For long events, book two interpreters so they can take turns.</li>
</ul>`,
  },
  {
    collection: 'blogs',
    title: 'From First Login to First Client: Stella’s Digital Skills Journey in Gulu',
    summary:
      'Stella Akello had never used a computer when she joined our digital skills course in Gulu. Twelve weeks later she was designing posters for paying customers. This is her story.',
    category: 'inspiration',
    authorEmail: DANIEL,
    tags: ['digital skills', 'youth', 'employment', 'deaf culture', 'entrepreneurship'],
    daysAgo: 45,
    image: {
      alt: 'Illustration of a laptop showing a simple page layout, drawn in white lines on a deep violet-to-indigo background',
      motif: 'laptop',
      from: '#4c1d95',
      to: '#3730a3',
    },
    content: `<p>When Stella Akello arrived for the first day of our digital skills course in Gulu, she had used a smartphone but never a computer. She is Deaf, twenty-two, and had finished Senior Four before leaving school to help at her aunt’s shop. “I always liked drawing,” she signed on that first morning, “but I did not know drawing could be a job.”</p>
<h2>Learning in her own language</h2>
<p>Our Gulu group included four Deaf learners, so every session had a Ugandan Sign Language interpreter and printed step-by-step guides with screenshots. Stella worked through typing practice, email, online safety and spreadsheets before reaching the module she had been waiting for: basic graphic design with free tools.</p>
<p>She was not the fastest learner in week one. She was the most persistent. She stayed after class to repeat exercises and filled a notebook with keyboard shortcuts drawn as little diagrams. By week six she was helping other learners find the menus they had lost.</p>
<h2>The first paid job</h2>
<p>For the final project, each learner had to produce real work for a real client. Stella approached a woman who runs a tailoring shop near the market and offered to design a price list and a Facebook banner for free. The tailor liked them so much that she paid anyway, and recommended Stella to a neighbour who sells solar lamps.</p>
<blockquote>“Before the course, people told my aunt I was clever but it was a pity I was deaf. Now they send customers to me.”</blockquote>
<p>Since graduating, Stella has designed posters for a church fundraiser, menus for two restaurants and cards for several weddings. She works with clients through WhatsApp messages and quick sketches, which she says suits her perfectly. She is saving for her own laptop; for now she rents time at a computer centre.</p>
<h2>What we learned</h2>
<p>Stella’s story reminds us that talent is everywhere but access is not. Young people with disabilities need training in accessible formats, a first client to build confidence, and a community that believes in them. Our next groups start soon, and we are looking for local businesses willing to offer learners their first real project.</p>`,
  },
  {
    collection: 'blogs',
    title: 'What I Wish Hearing People Knew About Lip-Reading',
    summary:
      'Lip-reading is not magic, and it is exhausting. Our Communications Officer Aisha Namutebi, who is hard of hearing, shares simple tips that make conversations easier for everyone.',
    category: 'resources',
    authorEmail: AISHA,
    tags: ['hard of hearing', 'communication', 'accessibility', 'workplace', 'inclusion'],
    daysAgo: 58,
    image: {
      alt: 'Illustration of an ear with curved sound waves drawn in white lines on a deep teal-to-navy background',
      motif: 'ear',
      from: '#134e4a',
      to: '#1e3a8a',
    },
    content: `<p>I have been hard of hearing since my early teens. I wear hearing aids, I use captions whenever I can, and I lip-read all day long. When I tell people this, the usual response is, “Oh good, so you can understand everything if I just look at you.” I wish that were true.</p>
<h2>Lip-reading is mostly guessing</h2>
<p>Many sounds look the same on the lips. “Pat”, “bat” and “mat” are almost identical if you cannot hear them, and sounds made at the back of the mouth, like “k” and “g”, are nearly invisible. So lip-reading is really a puzzle: I catch some shapes, add context, use what my hearing aids give me and fill in the gaps. When the topic changes suddenly, or someone uses a name I do not know, the puzzle falls apart.</p>
<p>It is also tiring. After a long meeting I am exhausted in a way that is hard to explain, like reading a book where every third word is missing.</p>
<h2>Simple things that help</h2>
<ol>
<li><strong>Face me and keep your mouth visible.</strong> Do not talk while looking at your phone, eating, or covering your mouth.</li>
<li><strong>Stand in the light.</strong> If the window is behind you, your face becomes a shadow.</li>
<li><strong>Speak clearly, not loudly.</strong> Shouting distorts lip shapes and makes people stare.</li>
<li><strong>Tell me the topic.</strong> “We are talking about the budget” gives me the context to follow.</li>
<li><strong>Rephrase, do not just repeat.</strong> If I miss something twice, try different words.</li>
<li><strong>Write it down.</strong> Names, numbers and addresses are easier on paper or in a text message.</li>
</ol>
<h2>Meetings and calls</h2>
<p>In group meetings, one person speaking at a time is the biggest help. For online calls, switch on automatic captions and keep your camera on. Sharing an agenda before the meeting and notes afterwards means I can focus on taking part instead of catching up.</p>
<blockquote>Please do not say “never mind” or “it’s not important”. If it was worth saying, it is worth saying to me.</blockquote>
<p>Finally, remember that not every deaf or hard-of-hearing person lip-reads, and those of us who do have different levels of skill. The best thing you can do is ask: “What works best for you?” Then listen to the answer, with your ears and your eyes.</p>`,
  },
  {
    collection: 'blogs',
    title: 'The Day My Teacher Turned Around: Growing Up Deaf in Mukono',
    summary:
      'Our founder Grace Nakato remembers losing her hearing as a child, finding Ugandan Sign Language as a teenager, and the small act of kindness that led her to start TDG Uganda.',
    category: 'personal-experience',
    authorEmail: GRACE,
    tags: ['deaf culture', 'sign language', 'education', 'storytelling', 'inclusion'],
    daysAgo: 72,
    image: {
      alt: 'Illustration of a school building with a flag on its roof, drawn in white lines on a deep navy-to-teal background',
      motif: 'school',
      from: '#1e3a8a',
      to: '#134e4a',
    },
    content: `<p>I became deaf when I was seven, after a long fever. I remember the last sounds clearly: my mother calling me for supper and the rain on our iron roof in Mukono. After the fever the world went quiet, and for a while nobody, including me, understood what had happened.</p>
<h2>Learning to read faces</h2>
<p>I went back to the same primary school. My teacher was kind, but she taught the way she always had, talking while she wrote on the blackboard with her back to the class. I learned to watch the faces of my classmates. When they laughed, I laughed. When they opened their books, I opened mine. I became very good at pretending.</p>
<p>One day, during an English lesson, the teacher asked me a question. I did not know she was speaking to me. The class went silent and everyone turned to look. Then she did something I have never forgotten: she walked over, knelt beside my desk, and wrote the question in my exercise book. It was a small thing. It told me that I was still part of the class.</p>
<h2>Finding my people</h2>
<p>At fourteen I met Deaf young people for the first time, at a school with a unit for deaf learners. They signed so fast that I could not follow, and they teased me for signing like a baby. Within months, Ugandan Sign Language felt more natural to me than speech ever had. I discovered that I was not a broken hearing person. I was part of a community with its own language, humour, history and pride.</p>
<blockquote>Deafness did not take my voice. Lack of access tried to. Sign language gave it back.</blockquote>
<h2>Why TDG Uganda exists</h2>
<p>Years later, working in an office in Kampala, I saw the same patterns again. Deaf colleagues were left out of meetings. Wheelchair users could not reach the second floor. Talented young people with disabilities were told to be grateful for any job. Most people were not cruel. They had simply never been shown another way.</p>
<p>That is why we started TDG Uganda: to tell our stories, teach practical skills and open doors for young people. Awareness is where change begins. Like my teacher kneeling beside my desk, sometimes all it takes is one person willing to turn around.</p>`,
  },
];

const NEWS: SeedArticle[] = [
  {
    collection: 'news',
    title: 'Sign Language Awareness Workshops Reach Workplaces in Mukono and Jinja',
    easyRead: `We gave short classes to people who work in shops, clinics, a bank and a hotel. The classes were in Mukono and Jinja.

They learned about Deaf people. They learned some signs in Ugandan Sign Language.

They learned to:

- Look at a Deaf person when they talk.
- Say hello and thank you in signs.
- Write things down when they need to.

Many of them want to learn more signs. We will teach more classes next year.`,
    summary:
      'Staff from shops, clinics, a bank branch and a hotel spent two days learning basic Ugandan Sign Language and Deaf awareness in our latest workshops in Mukono and Jinja.',
    category: 'news',
    authorEmail: AISHA,
    tags: ['sign language', 'workshops', 'employment', 'accessibility', 'deaf culture'],
    daysAgo: 1,
    image: {
      alt: 'Illustration of two hands signing drawn in white lines on a deep rust-to-rose background',
      motif: 'hands',
      from: '#7c2d12',
      to: '#831843',
    },
    content: `<p>TDG Uganda this month completed a series of Deaf awareness and basic Ugandan Sign Language workshops for front-line staff in Mukono and Jinja. Participants came from supermarkets, pharmacies, a microfinance branch, two private clinics and a hotel reception team.</p>
<p>Each two-day workshop was led by Deaf facilitators, supported by a hearing co-trainer. Sessions covered greetings, numbers, money and directions in sign language, as well as practical skills: how to get a Deaf customer’s attention, how to use writing and phone messages well, and when to book a professional interpreter.</p>
<h2>Learning from Deaf trainers</h2>
<p>“Having Deaf trainers lead the room is the point,” said Grace Nakato, Founder and Executive Director of TDG Uganda. “Participants stop seeing deafness as a problem to be managed. They see a teacher, a colleague, a customer with money to spend.”</p>
<p>Participants practised role plays based on real situations: a Deaf customer asking about a mobile money transaction, a patient explaining symptoms at a pharmacy counter, a guest checking into a hotel. A pharmacist from Jinja said the session changed how she thinks about her counter. “I realised that I always spoke to the person standing next to the Deaf customer. From now on I will look at the customer.”</p>
<h2>What participants took away</h2>
<ul>
<li>Around forty everyday signs for greetings, numbers, payment and directions.</li>
<li>A simple picture-based communication card for the counter.</li>
<li>Contact details for booking interpreters in their district.</li>
<li>A commitment from each workplace to one practical change, such as a pen and notepad at every till.</li>
</ul>
<p>Across both towns, our workshops reached 64 staff members from 15 workplaces. Several employers have already asked for follow-up sessions for new staff, and two have asked us to review their customer signage.</p>
<p>Workplaces interested in hosting a Deaf awareness workshop can reach our programmes team through our <a href="/contact">contact page</a>. Workshops can be tailored to retail, health, banking, hospitality and public offices.</p>`,
  },
  {
    collection: 'news',
    title: 'New Partnership Brings Sign Language Clubs to Three Wakiso Primary Schools',
    summary:
      'TDG Uganda is partnering with three primary schools in Wakiso District to start weekly sign language clubs, with Deaf mentors working alongside teachers, deaf pupils and hearing pupils.',
    category: 'education',
    authorEmail: AISHA,
    tags: ['sign language', 'education', 'schools', 'youth', 'inclusion'],
    daysAgo: 6,
    image: {
      alt: 'Illustration of a school building with a flag, drawn in white lines on a deep green-to-teal background',
      motif: 'school',
      from: '#065f46',
      to: '#134e4a',
    },
    content: `<p>TDG Uganda has agreed a partnership with three primary schools in Wakiso District to launch weekly Ugandan Sign Language clubs for pupils and teachers. The clubs begin this term and will run for the full school year.</p>
<p>Each club meets for one hour after lessons and is led by a Deaf mentor from our volunteer network, working alongside a teacher from the school. Clubs are open to all pupils. Two of the partner schools have deaf learners in inclusive classes, and the third has a unit for deaf learners.</p>
<h2>Why clubs, not just classes</h2>
<p>“When only deaf children sign, they stay isolated in the playground,” said Daniel Ssempala, Programmes Lead at TDG Uganda. “When their classmates sign too, they get friends, team-mates and study partners. Clubs make sign language something fun that the whole school owns.”</p>
<p>Activities will include signed songs and games, storytelling, a ceremony where each pupil receives a sign name, and a short drama performed at the end-of-year open day. Teachers who take part will receive a certificate and a set of classroom posters showing the sign language alphabet and common classroom signs.</p>
<blockquote>“Our deaf pupils are bright. What they need is a school where everyone can talk to them.” — Head teacher at one of the partner schools</blockquote>
<h2>Support for teachers</h2>
<p>Alongside the clubs, we will run two in-service sessions for teaching staff on inclusive classroom practice, covering seating, visual teaching aids, checking understanding and working with interpreters. Teachers will also join a shared group where they can ask our facilitators questions during the term.</p>
<p>The partnership is supported by the parents’ associations at each school, which have agreed to provide a room and a snack for club members. We will share what we learn so that other schools in Wakiso, Mukono and Kampala can start clubs of their own. Schools interested in joining the next phase can reach our team through our <a href="/contact">contact page</a>.</p>`,
  },
  {
    collection: 'news',
    title: 'Know Your Rights: Community Sessions on the Persons with Disabilities Act 2020',
    easyRead: `Uganda has a law for people with disabilities. It is called the Persons with Disabilities Act 2020.

We held meetings in Masaka and Mbale. We talked about the law in simple words.

The law says people with disabilities have the right to:

- Go to school.
- Work.
- Get health care.
- Get information they can understand.

Our meetings are not legal advice. If you need help, we can tell you who to ask.`,
    summary:
      'Our plain-language sessions in Masaka and Mbale helped people with disabilities, families and local leaders discuss what the Persons with Disabilities Act 2020 means in daily life.',
    category: 'advocacy',
    authorEmail: GRACE,
    tags: ['policy', 'rights', 'advocacy', 'accessibility', 'inclusion'],
    daysAgo: 12,
    image: {
      alt: 'Illustration of an open book drawn in white lines on a deep navy-to-violet background',
      motif: 'book',
      from: '#1e3a8a',
      to: '#4c1d95',
    },
    content: `<p>TDG Uganda held a series of community information sessions in Masaka and Mbale to explain the Persons with Disabilities Act 2020 in plain language. The sessions brought together people with disabilities, parents, local council leaders, teachers and health workers.</p>
<p>The Act is Uganda’s main law on the rights of persons with disabilities. Many people we meet have heard of it, but few have had the chance to read it or talk about what it means for their own lives. Our sessions focused on everyday situations rather than legal language.</p>
<h2>What we discussed</h2>
<ul>
<li><strong>Non-discrimination:</strong> people with disabilities must not be treated unfairly because of their disability, including at work and when using services.</li>
<li><strong>Accessibility:</strong> what it means for public buildings, transport and information to be accessible.</li>
<li><strong>Education and employment:</strong> learning and working on an equal basis, with reasonable accommodation.</li>
<li><strong>Sign language and accessible formats:</strong> why information in Ugandan Sign Language, Braille, large print and easy-read matters.</li>
</ul>
<p>Every session was interpreted into Ugandan Sign Language, and handouts were available in large print. In Mbale, a local council chairperson asked how to make village meetings accessible, which led to a lively discussion about seating, lighting and sharing agendas early.</p>
<h2>From paper to practice</h2>
<p>“A good law is a starting point, not a finish line,” said Grace Nakato, Founder and Executive Director of TDG Uganda. “Rights become real when people know them, can explain them and feel confident to ask for them.”</p>
<blockquote>“I did not know I could ask for information in a form I can use. Now I know I can ask, and why.” — Participant in Masaka</blockquote>
<p>Our sessions are for awareness and are not legal advice. Participants who needed help with a specific situation were referred to local disability organisations and legal aid providers. We plan to publish an easy-read summary and a short signed video on the key ideas in the Act, and to bring the sessions to Gulu and Wakiso next. If your community group, school or council would like to host a session, please get in touch.</p>`,
  },
  {
    collection: 'news',
    title: 'Captions and Signing on Screen: Community TV Pilot Launches in Masaka',
    summary:
      'A community television station in Masaka is piloting captions and an on-screen sign language interpreter for its evening news, with testing support from TDG Uganda and Deaf viewers.',
    category: 'technology',
    authorEmail: DANIEL,
    tags: ['captioning', 'technology', 'media', 'sign language', 'accessibility'],
    daysAgo: 20,
    image: {
      alt: 'Illustration of a studio microphone with sound waves, drawn in white lines on a deep indigo-to-navy background',
      motif: 'mic',
      from: '#3730a3',
      to: '#1e3a8a',
    },
    content: `<p>A community television station in Masaka has begun a three-month pilot adding captions and an on-screen Ugandan Sign Language interpreter to its evening news bulletin. TDG Uganda is supporting the pilot with accessibility advice and by organising viewer testing with Deaf and hard-of-hearing audiences.</p>
<p>For many Deaf viewers, television news is still something they watch without fully understanding. Pictures tell part of the story, but details about health campaigns, school calendars, road closures or weather warnings are often lost.</p>
<h2>What the pilot includes</h2>
<ul>
<li>An interpreter window large enough to see hand shapes and facial expressions clearly.</li>
<li>Captions on pre-recorded news segments, in a clear font on a dark background box.</li>
<li>Key details such as phone numbers and dates shown on screen as text.</li>
<li>A monthly feedback session with Deaf and hard-of-hearing viewers.</li>
</ul>
<h2>Testing with viewers</h2>
<p>In the first feedback session, a group of viewers watched recorded bulletins together and rated what worked. The biggest request was simple: make the interpreter bigger. Several viewers said small interpreter boxes in the corner are hard to follow, especially on phones and older television sets. Hard-of-hearing participants, including older viewers who lost hearing later in life, said captions helped them most because they do not sign.</p>
<blockquote>“For the first time I knew what the news was saying at the same time as my family, not afterwards when someone had time to explain.” — Deaf viewer, Masaka</blockquote>
<h2>Technology and people</h2>
<p>Captioning live speech remains a challenge. Automatic speech recognition tools are improving, but they still struggle with local names, accents and switching between Luganda and English in one sentence. For now, the station captions pre-recorded segments and relies on the interpreter for live content.</p>
<p>“Accessible broadcasting is possible with the equipment many stations already have,” said Aisha Namutebi, Communications Officer at TDG Uganda. “It needs planning, training and listening to Deaf viewers.” We will share practical lessons from the pilot with other broadcasters who want to make their programmes accessible.</p>`,
  },
  {
    collection: 'news',
    title: 'Hundreds Walk Through Mukono Town for Disability Awareness',
    summary:
      'Families, students, boda-boda riders and local businesses joined our awareness walk through Mukono, which ended with performances, signed songs and a free accessibility fair.',
    category: 'community',
    authorEmail: GRACE,
    tags: ['awareness', 'community', 'events', 'inclusion', 'youth'],
    daysAgo: 28,
    image: {
      alt: 'Illustration of a group of three people standing together, drawn in white lines on a deep rose-to-rust background',
      motif: 'people',
      from: '#831843',
      to: '#7c2d12',
    },
    content: `<p>More than 300 people registered with TDG Uganda to take part in our disability awareness walk through Mukono town on Saturday morning. Walkers, wheelchair users, families with children, school groups and members of local savings groups set off together carrying banners and placards written by young people with disabilities.</p>
<p>The route was planned with accessibility in mind. It avoided steep slopes and rough ground, had rest points with shade and water every kilometre, and had volunteer marshals trained in guiding blind walkers. Ugandan Sign Language interpreters walked alongside the groups and stood on stage for every speech.</p>
<h2>A celebration as well as a call</h2>
<p>The walk ended with an afternoon of performances. A Deaf dance group from Kampala performed to drums they could feel through the stage floor, a school choir signed the national anthem, and young poets with disabilities shared their own work. Local businesses set up stalls, and our accessibility fair offered free information on assistive devices, sign language classes and our digital skills training.</p>
<blockquote>“People usually notice us when we are asking for help. Today they saw us leading the way down the main road.” — Young walker from Mukono</blockquote>
<h2>Our messages</h2>
<ul>
<li>Inclusion starts with attitudes: see the person first.</li>
<li>Every child with a disability belongs in school.</li>
<li>Accessible public spaces benefit everyone, including older people and parents with young children.</li>
<li>Young people with disabilities are ready to work.</li>
</ul>
<p>Boda-boda riders from a local stage joined the walk wearing reflective vests with the message “I stop for everyone”, after taking part in one of our short awareness briefings the week before.</p>
<p>“Thank you to everyone who walked, rolled, signed and cheered,” said Grace Nakato, Founder and Executive Director. “Awareness is not a one-day event, but days like this remind the whole town that disability is part of our community.” We are grateful to our volunteers and to the local leaders who supported the walk, and we hope to bring it to Jinja next year.</p>`,
  },
  {
    collection: 'news',
    title: 'Applications Open: Free Digital Skills Course for Young People with Disabilities',
    summary:
      'Our next 12-week digital skills course runs in Kampala and Gulu. Young people with disabilities aged 18 to 30 can apply now for free training in computers, design and online work.',
    category: 'opportunities',
    authorEmail: AISHA,
    tags: ['digital skills', 'youth', 'employment', 'training', 'opportunities'],
    daysAgo: 39,
    image: {
      alt: 'Illustration of an open laptop drawn in white lines on a deep indigo-to-navy background',
      motif: 'laptop',
      from: '#3730a3',
      to: '#1e3a8a',
    },
    content: `<p>Applications are now open for the next group of TDG Uganda’s Digital Skills Training, a free 12-week course for young people with disabilities. Classes will run in Kampala and Gulu, three mornings a week, with a mix of practical lab sessions and mentoring.</p>
<h2>What you will learn</h2>
<ul>
<li>Computer basics, typing and managing files.</li>
<li>Email, online safety and protecting your accounts.</li>
<li>Spreadsheets and documents for work.</li>
<li>Basic graphic design and social media content.</li>
<li>Finding online and local work, writing a CV and preparing for interviews.</li>
</ul>
<p>Every learner completes a final project for a real local business or community group. Graduates receive a certificate and join our alumni network for job leads and peer support.</p>
<h2>Who can apply</h2>
<p>The course is open to young people aged 18 to 30 with any disability, including Deaf and hard-of-hearing, blind and low-vision, and physically disabled young people. No previous computer experience is needed. We especially encourage young women to apply.</p>
<h2>Accessibility</h2>
<p>Training rooms are step-free, with accessible toilets. Ugandan Sign Language interpreters are provided in every session where Deaf learners are enrolled. Course materials come in large print and accessible digital formats, and computers are set up with screen readers and magnification. A transport allowance is available for learners who need it. Tell us what you need on the application form and we will work with you to arrange it.</p>
<blockquote>“I came in not knowing how to save a file. I left with a portfolio and my first customer.” — Graduate, Gulu group</blockquote>
<h2>How to apply</h2>
<p>Complete the short application form on our website, or visit our office in Mukono. You can also apply by sending a signed video or a voice note with your name, age, district and why you want to join. Shortlisted applicants will be invited to an informal conversation, not an exam. “Digital skills open doors that steps and stairs have kept closed,” said Daniel Ssempala, Programmes Lead.</p>`,
  },
  {
    collection: 'news',
    title: 'Open Sign Language Classes Mark International Day of Sign Languages',
    summary:
      'To mark International Day of Sign Languages, TDG Uganda ran free taster classes in Kampala, Mukono and Jinja, where the public learned their first signs from Deaf teachers.',
    category: 'news',
    authorEmail: AISHA,
    tags: ['sign language', 'deaf culture', 'events', 'education', 'awareness'],
    daysAgo: 51,
    image: {
      alt: 'Illustration of a globe with lines of latitude and longitude, drawn in white on a deep teal-to-indigo background',
      motif: 'globe',
      from: '#134e4a',
      to: '#3730a3',
    },
    content: `<p>TDG Uganda marked International Day of Sign Languages with free open classes in Kampala, Mukono and Jinja. The one-hour taster sessions were taught by Deaf teachers and open to anyone who wanted to learn their first signs in Ugandan Sign Language. Across the three towns, our classes welcomed more than 200 learners.</p>
<p>Participants included market vendors, university students, church leaders, parents and a group of secondary school pupils who arrived in uniform straight from class. Each session began with a short introduction to Deaf culture, followed by greetings, introductions, family signs and fingerspelling practice.</p>
<h2>A language, not a set of gestures</h2>
<p>Many participants arrived believing that sign language is the same everywhere, or that it is simply English on the hands. Our teachers explained that Ugandan Sign Language is a full language with its own grammar, regional variation and humour, and that Deaf communities in different countries use different sign languages.</p>
<p>Uganda’s 1995 Constitution was among the first in the world to mention sign language, calling on the State to promote its development. “Recognition matters,” said Grace Nakato, TDG Uganda’s founder. “But a language lives when people use it, in homes, schools, clinics and offices. Today, many new people took their first step.”</p>
<blockquote>“My neighbour is Deaf and we have greeted each other with a wave for ten years. Tomorrow I will greet her properly.” — Participant in Jinja</blockquote>
<h2>What happens next</h2>
<ul>
<li>Participants who want to continue can join our eight-week beginners’ course.</li>
<li>Short video lessons will be shared on our social media pages each week.</li>
<li>Workplaces can book a Deaf awareness workshop for their teams.</li>
</ul>
<p>Thank you to the Deaf teachers and volunteers who gave their time, and to the venues that opened their doors. Sign language belongs to everyone who is willing to learn it with respect.</p>`,
  },
  {
    collection: 'news',
    title: 'Call for Storytellers: Share Your Experience on the TDG Uganda Blog',
    summary:
      'We invite people with disabilities, families and allies across Uganda to share their stories on our blog, in writing, sign language video or voice notes. Editorial support is free.',
    category: 'opportunities',
    authorEmail: GRACE,
    tags: ['storytelling', 'community', 'inclusion', 'opportunities', 'awareness'],
    daysAgo: 88,
    image: {
      alt: 'Illustration of a megaphone with sound lines drawn in white on a deep violet-to-rose background',
      motif: 'megaphone',
      from: '#4c1d95',
      to: '#831843',
    },
    content: `<p>Storytelling is at the heart of TDG Uganda’s work. Today we are launching an open call for new contributors to our blog: people with disabilities, parents and family members, teachers, interpreters, employers and allies from every region of Uganda.</p>
<p>We believe the most powerful awareness comes from people telling their own stories in their own words. A Deaf student describing a good lesson, a wheelchair user mapping her route to the market, or a grandfather learning to use a white cane can change minds in a way that numbers rarely do.</p>
<h2>What we are looking for</h2>
<ul>
<li>Personal experiences of school, work, family, faith, transport, health care or leisure.</li>
<li>Stories of people and places getting inclusion right, and lessons from when they did not.</li>
<li>Practical tips that could help others in a similar situation.</li>
<li>Profiles of community groups, savings groups, sports teams and Deaf clubs.</li>
</ul>
<h2>Share it your way</h2>
<p>You do not need to be a writer. You can send us a written piece, a signed video in Ugandan Sign Language, or a voice note in English, Luganda or another Ugandan language. Our communications team will work with you to shape the story, translate where needed and agree the final version with you before anything is published.</p>
<p>You decide how you are described, including whether we use your full name, your first name only, or no name at all. We will never publish a photo or personal detail without your consent, and you can ask us to remove your story at any time.</p>
<blockquote>“Telling my story was the first time I felt like the expert on my own life.” — Blog contributor</blockquote>
<h2>How to take part</h2>
<p>Send us a short message describing the story you would like to tell, through our website or our social media pages. Contributors receive a small thank-you payment and a certificate, and selected stories may feature in our school talks and awareness campaigns. “Our stories are our strength,” said Aisha Namutebi, Communications Officer. “We cannot wait to hear yours.”</p>`,
  },
];

const RESOURCES: SeedArticle[] = [
  {
    collection: 'resources',
    title: 'A Practical Guide to Communicating with Deaf and Hard-of-Hearing Colleagues',
    easyRead: `Deaf people work in many jobs. Good talk at work is easy. It needs good habits.

Ask your Deaf colleague how they like to talk. Some sign. Some read lips. Some write.

Tips:

- Face the person when you talk.
- Do not cover your mouth.
- Talk in a quiet, bright place.
- Write down dates and numbers.
- Get an interpreter for big meetings.

Small habits help a lot.`,
    summary:
      'Simple habits for offices and teams: how to get attention, run inclusive meetings, work with interpreters and use writing and technology so every colleague can take part.',
    category: 'resources',
    authorEmail: AISHA,
    tags: ['communication', 'workplace', 'sign language', 'hard of hearing', 'employment', 'inclusion'],
    daysAgo: 64,
    image: {
      alt: 'Illustration of two hands signing drawn in white lines on a deep teal-to-green background',
      motif: 'hands',
      from: '#134e4a',
      to: '#065f46',
    },
    content: `<p>Deaf and hard-of-hearing people work in every kind of job in Uganda: as accountants, tailors, teachers, designers, mechanics and civil servants. Good communication at work is rarely about expensive equipment. It is about habits. This guide brings together the advice we share most often in our workplace workshops.</p>
<h2>Start by asking</h2>
<p>Deaf and hard-of-hearing people communicate in many ways. Some use Ugandan Sign Language as their first language. Some speak and lip-read, some use hearing aids, and many combine methods depending on the situation. Ask your colleague, privately and respectfully: “How do you prefer to communicate?” Then follow their lead.</p>
<h2>Everyday communication</h2>
<ul>
<li><strong>Get attention politely:</strong> a light tap on the shoulder, a wave in their line of sight, or switching the lights off and on in a large room.</li>
<li><strong>Face the person</strong> and keep your mouth visible. Do not turn away mid-sentence.</li>
<li><strong>Use writing freely:</strong> a notebook, a whiteboard or a phone message is a perfectly good tool.</li>
<li><strong>Learn some signs:</strong> hello, thank you, meeting, break and lunch go a long way.</li>
<li><strong>Put important information in writing</strong> as well as announcing it, including fire drills and schedule changes.</li>
</ul>
<h2>Meetings</h2>
<ol>
<li>Share the agenda and documents in advance.</li>
<li>Seat Deaf colleagues where they can see everyone, and the interpreter, clearly.</li>
<li>Agree that one person speaks at a time, and say your name before you speak in large meetings.</li>
<li>Pause when showing slides so people can look at the screen and then at the interpreter.</li>
<li>Share written notes and action points afterwards.</li>
</ol>
<h2>Working with interpreters</h2>
<p>Book qualified Ugandan Sign Language interpreters early, and for meetings longer than an hour, book two so they can take turns. Speak directly to your Deaf colleague, not to the interpreter: say “What do you think?” rather than “Ask her what she thinks.” Give the interpreter materials in advance so they can prepare technical vocabulary.</p>
<h2>Technology that helps</h2>
<p>Turn on captions in video calls and keep cameras on so people can lip-read or see signing. Use messaging groups for quick team updates, and make sure any phone-only process, such as calling in sick, has a text or email alternative. Visual fire alarms or a buddy system make emergencies safer.</p>
<blockquote>Inclusion is not one big adjustment. It is many small habits that say: you belong on this team.</blockquote>
<p>Want help putting this into practice? Our <a href="/services">inclusion talks and workshops</a> can be tailored to your organisation.</p>`,
  },
  {
    collection: 'resources',
    title: 'How to Make Your Event Accessible: A Checklist for Organisers in Uganda',
    summary:
      'Planning a workshop, graduation, church event or conference? This checklist covers venues, invitations, sign language, materials and transport so disabled guests can fully take part.',
    category: 'education',
    authorEmail: DANIEL,
    tags: ['accessibility', 'events', 'sign language', 'inclusion', 'planning'],
    daysAgo: 101,
    image: {
      alt: 'Illustration of a group of three people standing together, drawn in white lines on a deep green-to-navy background',
      motif: 'people',
      from: '#065f46',
      to: '#1e3a8a',
    },
    content: `<p>Whether you are organising a community meeting in Wakiso, a graduation in Mbale or a conference in Kampala, an accessible event is a better event for everyone. Most of the work happens at the planning stage, and much of it costs very little. Use this checklist as a starting point.</p>
<h2>1. Before you book the venue</h2>
<ul>
<li>Visit in person. Check for step-free access from the road to the entrance, the main hall, the toilets and the food area.</li>
<li>Check that there is at least one accessible toilet that is unlocked and not used as a store.</li>
<li>Look for good lighting, especially at the front where speakers and interpreters will stand.</li>
<li>Where possible, choose a quieter venue, away from generators, loud music or traffic.</li>
</ul>
<h2>2. Invitations and registration</h2>
<ul>
<li>Ask every guest, “Do you have any access requirements?” and give examples, such as sign language interpretation, large print or a reserved seat.</li>
<li>Send invitations as plain text in a message or email as well as a poster image.</li>
<li>Share the venue’s access information, including where the drop-off point is.</li>
</ul>
<h2>3. On the day</h2>
<ul>
<li>Book qualified Ugandan Sign Language interpreters, two for any event longer than an hour, and place them next to the speaker in good light.</li>
<li>Reserve front seats with a clear view for Deaf and hard-of-hearing guests, and keep spaces for wheelchair users throughout the room, not only at the back.</li>
<li>Ask every speaker to use the microphone, even if they have a loud voice.</li>
<li>Describe slides and pictures aloud for blind and low-vision guests.</li>
<li>Plan regular breaks and offer water and seating in the shade.</li>
</ul>
<h2>4. Materials and media</h2>
<p>Prepare programmes in large print, and share slides in advance as accessible documents. Add captions to any video you show. If you livestream, keep the interpreter in the camera shot and switch on captions.</p>
<h2>5. Transport and arrival</h2>
<p>Agree a safe, level drop-off point close to the entrance. Brief volunteers on how to guide a blind guest, and remind them to always ask before helping or touching someone’s wheelchair, cane or crutches.</p>
<blockquote>Ask early, plan early and involve disabled people in the planning. That is the whole secret.</blockquote>
<p>After your event, ask disabled guests what worked and what did not, and use their feedback next time. If you would like help planning an accessible event, our team offers accessibility reviews and can recommend interpreters and captioning support through our <a href="/services">services page</a>.</p>`,
  },
];

export const SEED_ARTICLES: SeedArticle[] = [...BLOGS, ...NEWS, ...RESOURCES];

/**
 * The four built-in services' ids and titles, for the journeys that read their pages. They are not
 * demo content: first start stores them as the organisation's own (`storeBuiltInServices` in
 * seed.server.ts), with the static pictures in public/images/services.
 */
export const SEED_SERVICES: { id: DefaultServiceId; title: string }[] = DEFAULT_SERVICE_IDS.map((id) => ({
  id,
  title: DEFAULT_SERVICES[id].title,
}));
