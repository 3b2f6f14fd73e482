import type { DefaultServiceId } from '../../lib/services.ts';

// What the site shows when its database has nothing to say, needed at run time whatever was seeded:
// the founder profile (decision 301) and the four built-in services (spec §3, decision 303). The demo
// seed (db/seed-data.ts) builds the founder's staff account and the stored services from these words.

/** A staff member's public profile as the founder default and the demo authors give it. */
export interface StaffProfileText {
  name: string;
  email: string;
  title: string;
  /** One sentence. */
  bio: string;
  /** Two or three sentences. */
  fullBio: string;
  /** Full https URLs. */
  twitter?: string;
  linkedin?: string;
}

/**
 * The founder the home, About and article pages show until the 'founder_email' setting names an
 * account; each field of it yields to what staff save in Site settings (site-settings.server.ts).
 */
export const DEFAULT_FOUNDER: StaffProfileText = {
  name: 'Grace Nakato',
  email: 'grace.nakato@tdg-uganda.example',
  title: 'Founder & Executive Director',
  bio: 'Grace is a Deaf advocate from Mukono who founded TDG Uganda to raise disability awareness through education and storytelling.',
  fullBio:
    'Grace has been deaf since childhood and discovered Ugandan Sign Language as a teenager, an experience that shaped her life and her work. After years in office jobs in Kampala, she founded TDG Uganda to tell the stories of deaf, hard-of-hearing and disabled people and to open doors for young people with disabilities. She leads the organisation from Mukono and teaches Deaf awareness to schools, workplaces and community groups across Central Region.',
  twitter: 'https://x.example/gracenakato_tdg',
  linkedin: 'https://www.linkedin.example/in/grace-nakato',
};

/** A built-in service's words; its picture is a static file (`defaultServiceImage`). */
export interface DefaultServiceText {
  title: string;
  /** Two or three sentences. */
  description: string;
  /** Four or five items. */
  features: readonly string[];
  imageAlt: string;
  /** Issue 26: an easy-read version (plain text, decision 033). */
  easyRead?: string;
}

/** spec §3: the four built-in services, shown while none are stored, in `DEFAULT_SERVICE_IDS` order. */
export const DEFAULT_SERVICES: Record<DefaultServiceId, DefaultServiceText> = {
  'digital-skills': {
    title: 'Digital Skills Training',
    description:
      'A free 12-week course that gives young people with disabilities practical computer, design and online-work skills. Classes run in Kampala and Gulu with sign language interpreters, accessible materials and assistive technology, and every learner finishes with a real project for a local client.',
    features: [
      'Computer basics, email, online safety and spreadsheets',
      'Graphic design and social media content',
      'Ugandan Sign Language interpreters, large print and screen readers',
      'CV writing, interview practice and a first client project',
      'Alumni network with job leads and peer mentoring',
    ],
    imageAlt: 'Illustration of an open laptop drawn in white lines on a deep indigo-to-violet background',
    easyRead: `A free computer course for young people with disabilities. It lasts 12 weeks. Classes are in Kampala and Gulu.

You learn to:

- Use a computer and email.
- Stay safe online.
- Make pictures for social media.
- Write a CV.

We have sign language interpreters. We have large print and screen readers.

At the end, you do a real job for a real client.`,
  },
  'inclusion-talks': {
    title: 'Disability Inclusion Talks',
    description:
      'Our speakers, who are Deaf, hard of hearing or disabled themselves, lead honest and practical conversations about disability for schools, workplaces, churches and community groups. Each talk combines personal stories with simple actions your audience can take the next day.',
    features: [
      'Talks and workshops led by speakers with lived experience',
      'Deaf awareness and basic Ugandan Sign Language sessions',
      'Tailored content for schools, employers, health workers and faith groups',
      'Delivered in English or Luganda, with Ugandan Sign Language interpretation',
    ],
    imageAlt: 'Illustration of a microphone with sound waves, drawn in white lines on a deep rust-to-rose background',
  },
  'comm-services': {
    title: 'Inclusive Communication & Design',
    description:
      'We help organisations reach everyone, including deaf, hard-of-hearing, blind and low-vision audiences. Our team designs accessible graphics and social media content, captions videos and turns reports and forms into accessible documents.',
    features: [
      'Accessible graphic design and social media content',
      'Captioning and sign language interpretation for videos',
      'Accessible documents, large print and easy-read versions',
      'Accessibility reviews of websites and printed materials',
      'Work experience for graduates of our digital skills course',
    ],
    imageAlt: 'Illustration of a megaphone with sound lines drawn in white on a deep navy-to-teal background',
  },
  merchandise: {
    title: 'Awareness Merchandise',
    description:
      'Wear and share the message with t-shirts, tote bags and Ugandan Sign Language alphabet posters designed with our community. Every purchase helps fund our training and awareness programmes.',
    features: [
      'T-shirts and tote bags with inclusion messages',
      'Ugandan Sign Language alphabet and number posters for classrooms and offices',
      'Greeting cards designed by young artists with disabilities',
      'Bulk orders for schools, events and organisations',
      'All proceeds fund our programmes for young people with disabilities',
    ],
    imageAlt: 'Illustration of a heart drawn in white lines on a deep green-to-teal background',
  },
};
