import { Link } from 'react-router';
import { listRecentContent } from '~/server/content.server';
import { imageSrcSet } from '~/lib/images';
import { formatDate } from '~/lib/format';
import type { Route } from './+types/home';

export async function loader() {
  return { stories: await listRecentContent('blogs', 3) };
}

export const meta: Route.MetaFunction = () => [
  { title: 'Raising disability awareness in Uganda' },
  {
    name: 'description',
    content:
      'Raising disability awareness through education and storytelling, and creating opportunities for young persons with disabilities in Uganda.',
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <section className="bg-gradient-to-br from-indigo-950 via-indigo-900 to-indigo-800 text-white">
        <div className="mx-auto max-w-7xl px-4 py-20 md:py-28">
          <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">
            Deaf, hard of hearing and disabled, in Uganda
          </p>
          <h1 className="mt-4 max-w-3xl text-4xl leading-tight font-extrabold md:text-6xl">
            Raising disability awareness through education and storytelling
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-indigo-100 md:text-xl">
            We create opportunities for young persons with disabilities, and help schools, employers and families include
            everyone.
          </p>
          <Link
            to="/contact?subject=Partnership"
            className="mt-10 inline-flex rounded-full bg-amber-400 px-8 py-4 text-lg font-semibold text-slate-900 hover:bg-amber-300"
          >
            Partner with us
          </Link>
        </div>
      </section>

      <section aria-labelledby="latest-stories" className="mx-auto max-w-7xl px-4 py-16">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <h2 id="latest-stories" className="text-3xl font-bold text-slate-900">
            Latest stories
          </h2>
          <Link to="/blog" className="font-semibold text-indigo-800 underline underline-offset-4">
            All stories
          </Link>
        </div>
        <ul className="mt-8 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {loaderData.stories.map((story) => (
            <li key={story.id} className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
              {story.imageUrl && (
                <img
                  src={story.imageUrl}
                  srcSet={imageSrcSet(story.imageUrl)}
                  sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw"
                  alt={story.imageAlt}
                  width={1600}
                  height={900}
                  loading="lazy"
                  className="aspect-video w-full object-cover"
                />
              )}
              <div className="p-6">
                <p className="text-sm text-slate-600">
                  <time dateTime={story.createdAt}>{formatDate(story.createdAt)}</time>
                </p>
                <h3 className="mt-2 text-xl font-bold text-slate-900">
                  <Link to={`/blog/${story.id}`} className="hover:text-indigo-800 hover:underline">
                    {story.title}
                  </Link>
                </h3>
                <p className="mt-3 text-slate-700">{story.summary}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
