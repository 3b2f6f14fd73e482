import { Link } from 'react-router';
import { CountUp } from '~/components/count-up';
import { Image } from '~/components/image';
import { LIVES_IMPACTED } from '~/lib/stats';
import { BUTTON, EYEBROW } from './styles';

/** Home section 2: the mission, Join now and Discover, and the animated lives-impacted counter. */
export function Mission() {
  return (
    <section aria-labelledby="mission-title" className="mx-auto max-w-7xl px-4 py-16 md:py-24">
      <div className="grid items-center gap-10 md:grid-cols-2 md:gap-16">
        <div className="relative md:order-last">
          <Image
            src="/images/home/mission.svg"
            alt="Illustration of three people standing together, drawn in white on a deep indigo background"
            width={1200}
            height={900}
            sizes="(min-width: 768px) 50vw, 100vw"
            className="rounded-2xl shadow-sm"
          />
          <div className="absolute -bottom-6 left-4 rounded-2xl border border-slate-200 bg-white px-6 py-4 shadow-md sm:left-6">
            <p className="flex flex-col">
              <CountUp
                id="lives-impacted-mission"
                target={LIVES_IMPACTED.number}
                suffix={LIVES_IMPACTED.suffix}
                className="text-4xl font-extrabold text-indigo-900"
              />
              <span className="text-sm font-semibold text-slate-700">{LIVES_IMPACTED.label}</span>
            </p>
          </div>
        </div>
        <div className="pt-4 md:pt-0">
          <p className={EYEBROW}>Our mission</p>
          <h2 id="mission-title" className="mt-3 text-3xl font-bold text-slate-900 md:text-4xl">
            Awareness that opens doors
          </h2>
          <p className="mt-5 text-lg leading-relaxed text-slate-700">
            Too many deaf, hard-of-hearing and disabled young people in Uganda are shut out of classrooms, jobs and conversations.
            We change that by telling their stories, teaching communities what inclusion looks like and training young people with
            disabilities for the work they want to do.
          </p>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            Led by people with lived experience, we work with schools, employers, families and faith groups across Uganda.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/contact?subject=Volunteering" className={BUTTON.accent}>
              Join now
            </Link>
            <Link to="/about" className={BUTTON.outline}>
              Discover
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
