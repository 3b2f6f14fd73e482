import { Link } from 'react-router';
import { Image } from '~/components/image';
import { BUTTON, EYEBROW } from './styles';

/**
 * Home section 5: the Awareness Project with Learn more. The three slider dots (first active) are a
 * decorative indicator only: there is one slide, so they are hidden from assistive technology
 * (docs/decisions/302).
 */
export function AwarenessProject() {
  return (
    <section aria-labelledby="awareness-title" className="mx-auto max-w-7xl px-4 py-16 md:py-24">
      <div className="grid items-center gap-10 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm md:grid-cols-2">
        <div>
          <Image
            src="/images/home/awareness.svg"
            alt="Illustration of two hands signing, drawn in white on a deep rust-to-violet background"
            width={1600}
            height={900}
            sizes="(min-width: 768px) 50vw, 100vw"
          />
        </div>
        <div className="px-6 pb-8 md:py-10 md:pr-10 md:pl-0">
          <p className={EYEBROW}>The Awareness Project</p>
          <h2 id="awareness-title" className="mt-3 text-3xl font-bold text-slate-900">
            Deaf / Hard of Hearing Awareness Training
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-700">
            Our new course, taught by Deaf trainers, shows teachers, employers, health workers and families how to communicate
            with deaf and hard-of-hearing people, including first signs in Ugandan Sign Language.
          </p>
          <div className="mt-8 flex flex-wrap items-center justify-between gap-6">
            {/* The hidden words make the link say where it goes, to screen readers and to search engines
                (which read the text, not an aria-label); the name still starts with what is seen. */}
            <Link to="/services/awareness-course" className={BUTTON.accent}>
              Learn more<span className="sr-only"> about the Awareness Project</span>
            </Link>
            <div aria-hidden="true" className="flex gap-2">
              <span data-active="true" className="h-2.5 w-8 rounded-full bg-indigo-800" />
              <span className="h-2.5 w-2.5 rounded-full bg-slate-300" />
              <span className="h-2.5 w-2.5 rounded-full bg-slate-300" />
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
