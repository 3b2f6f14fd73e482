import { useEffect, useRef, useState } from 'react';
import { useI18n } from '~/lib/i18n/i18n';
import type { ArticleAuthor } from '~/lib/article';
import { LinkedInLogo, XLogo } from '../icons';
import { PillLink } from './share-buttons';

const AVATAR_SIZES = { md: 'h-12 w-12 text-lg', lg: 'h-20 w-20 text-3xl' } as const;

/**
 * The author's profile picture, or the first letter of their name when there is none or it fails.
 * Decorative: the name is always written next to it.
 */
export function AuthorAvatar({ author, size = 'md' }: { author: ArticleAuthor; size?: keyof typeof AVATAR_SIZES }) {
  const [failed, setFailed] = useState(false);
  const img = useRef<HTMLImageElement>(null);
  // The picture may have failed before hydration attached the handler.
  useEffect(() => {
    const el = img.current;
    if (el?.complete && el.naturalWidth === 0) setFailed(true);
  }, [author.picture]);
  const classes = `${AVATAR_SIZES[size]} shrink-0 rounded-full`;
  if (author.picture && !failed) {
    return (
      <img
        ref={img}
        src={author.picture}
        alt=""
        width={80}
        height={80}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        className={`${classes} bg-slate-200 object-cover`}
      />
    );
  }
  return (
    <span aria-hidden="true" className={`${classes} inline-flex items-center justify-center bg-indigo-900 font-bold text-white`}>
      {author.name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

/** spec §2 author block, under the summary: picture or initial, name, title. */
export function AuthorByline({ author }: { author: ArticleAuthor }) {
  const { t, english } = useI18n();
  return (
    <div className="flex items-center gap-3">
      <AuthorAvatar author={author} />
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          <span className="sr-only">{t('article.writtenBy')}</span>
          <span lang={english}>{author.name}</span>
        </p>
        {author.title && (
          <p lang={english} className="text-sm text-slate-600">
            {author.title}
          </p>
        )}
      </div>
    </div>
  );
}

/** spec §2 about-the-author: the full bio and the author's social links. */
export function AboutTheAuthor({ author }: { author: ArticleAuthor }) {
  const { t, english } = useI18n();
  const bio = author.fullBio || author.bio;
  const links = [
    author.twitter && { href: author.twitter, label: 'X (Twitter)', Icon: XLogo },
    author.linkedin && { href: author.linkedin, label: 'LinkedIn', Icon: LinkedInLogo },
  ].filter((link) => !!link);
  return (
    <section aria-labelledby="about-author" className="rounded-2xl border border-slate-200 bg-slate-50 p-6 shadow-sm md:p-8">
      <h2 id="about-author" className="text-2xl font-bold text-slate-900">
        {t('article.aboutAuthor')}
      </h2>
      <div className="mt-5 flex flex-col gap-5 sm:flex-row">
        <AuthorAvatar author={author} size="lg" />
        <div className="min-w-0">
          <p lang={english} className="text-xl font-semibold text-slate-900">
            {author.name}
          </p>
          {author.title && (
            <p lang={english} className="text-slate-600">
              {author.title}
            </p>
          )}
          {bio &&
            bio
              .split(/\n\s*\n/)
              .filter((part) => part.trim())
              .map((part, i) => (
                <p key={i} lang={english} className="mt-3 leading-relaxed text-slate-700">
                  {part}
                </p>
              ))}
          {links.length > 0 && (
            <ul className="mt-4 flex flex-wrap gap-3" aria-label={t('article.authorSocial', { name: author.name })}>
              {links.map(({ href, label, Icon }) => (
                <li key={label}>
                  <PillLink href={href} Icon={Icon}>
                    {label}
                  </PillLink>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
