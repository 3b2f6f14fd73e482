// spec §3 Service, shared by the server and the browser. The four built-in services' words live on
// the server (app/server/site-defaults.server.ts), which only the server's pages need
// (docs/decisions/303).

export interface Service {
  id: string;
  title: string;
  description: string;
  features: string[];
  imageUrl: string | null;
  imageAlt: string;
}

/** spec §3: the built-in services used when none are stored, in this order. */
export const DEFAULT_SERVICE_IDS = ['digital-skills', 'inclusion-talks', 'comm-services', 'merchandise'] as const;
export type DefaultServiceId = (typeof DEFAULT_SERVICE_IDS)[number];

/** The built-in services' pictures are static files, so they show even with an empty media folder. */
export function defaultServiceImage(id: string): string {
  return `/images/services/${id}.svg`;
}

/** spec §3: a service in the list shows its first three features; the detail page shows them all. */
export const FEATURES_SHOWN = 3;

/** spec §8. */
export const SERVICES_ERROR = 'Unable to load services. Please try again later.';

export const SERVICE_NOT_FOUND = 'Service not found';

/** The contact form, opened with this service as the subject. */
export function serviceContactHref(service: Pick<Service, 'title'>): string {
  return `/contact?subject=${encodeURIComponent(service.title)}`;
}
