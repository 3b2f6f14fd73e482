// Issue 26: the interface's words in English, the source of every other catalogue (ICU MessageFormat,
// read by @formatjs/intl: docs/decisions/030-languages.md). The spec's texts stay here word for word.
// A key names where the text is shown; a catalogue for another language must give every key.

export const EN = {
  // The public layout
  'layout.skip': 'Skip to main content',
  'nav.home': 'Home',
  'nav.about': 'About Us',
  'nav.stories': 'Stories',
  'nav.projects': 'Projects',
  'nav.news': 'In Media',
  'nav.contact': 'Contact Us',
  'nav.main': 'Main',
  'nav.mobile': 'Mobile',
  'nav.footer': 'Footer',
  'header.homeLink': '{name} home',
  'header.donate': 'Donate',
  'header.openMenu': 'Open menu',
  'menu.label': 'Menu',
  'menu.close': 'Close menu',
  'footer.joinHeading': 'Join our cause',
  'footer.joinText':
    'Every donation, partnership and hour volunteered helps a young person with a disability learn, work and be heard.',
  'footer.donateNow': 'Donate now',
  'footer.partner': 'Partner with us',
  'footer.volunteer': 'Become a Volunteer',
  'footer.explore': 'Explore',
  'footer.events': 'Trainings and events',
  'footer.contact': 'Contact',
  'footer.rights': '© {year} {name}. All rights reserved.',
  'footer.privacy': 'Privacy Policy',
  'footer.terms': 'Terms of Service',
  'footer.accessibility': 'Accessibility',
  // The language chooser
  'link.newTab': 'opens in a new tab',
  // Words the page script writes (app/client/reading.ts), passed as data attributes on <main>
  'script.imageUnavailable': 'Image unavailable',
  'script.imageUnavailableShort': 'image unavailable',
  'script.sendError': 'There was an error. Please try again later.',
  'language.label': 'Language',
  // The page that is not there
  'notFound.title': 'Page Not Found',
  'notFound.text': 'The page you are looking for does not exist or has moved.',
  'notFound.back': 'Back to Home',
  // Lists: search, categories, paging
  'list.search': 'Search',
  'list.category': 'Category',
  'list.allCategories': 'All categories',
  'list.pagination': 'Pagination',
  'list.previous': 'Previous page',
  'list.next': 'Next page',
  'list.pageOf': 'Page {page} of {pageCount}',
  'list.results': '{count, plural, one {# result} other {# results}}',
  // Translated content (issue 26 items 4 and 5: docs/decisions/031-translated-content.md)
  'translation.notTranslated': 'This has not been translated into this language yet, so it is shown in English.',
  'translation.englishMarker': 'In English',
  'translation.readInThis': 'Read in English',
  'translation.otherLanguages': 'This page in other languages',
  'translation.feedStories': 'Stories in English',
  'translation.feedNews': 'News in English',
} as const;

export type MessageId = keyof typeof EN;
export type Catalogue = Readonly<Record<MessageId, string>>;
