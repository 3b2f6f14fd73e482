import type { ReactNode } from 'react';

/** The indigo band at the top of About Us, Services and the course page: a kicker, the h1 and an intro. */
export function PageHero({
  id,
  kicker,
  title,
  intro,
  children,
  aside,
}: {
  id: string;
  kicker: string;
  title: string;
  intro: string;
  /** Buttons under the intro. */
  children?: ReactNode;
  /** A picture beside the text on wide screens. */
  aside?: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="bg-indigo-900 text-white">
      <div className={`mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 md:py-20 ${aside ? 'md:grid-cols-2' : ''}`}>
        <div>
          <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{kicker}</p>
          <h1
            id={id}
            className="mt-3 text-2xl font-extrabold text-balance min-[20rem]:text-3xl min-[22.5rem]:text-4xl md:text-5xl"
          >
            {title}
          </h1>
          <p className="mt-5 max-w-3xl text-lg text-indigo-100 md:text-xl">{intro}</p>
          {children && <div className="mt-8 flex flex-wrap gap-3">{children}</div>}
        </div>
        {aside}
      </div>
    </section>
  );
}
