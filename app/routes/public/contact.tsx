import { usePublicLayout } from '~/lib/public-layout';
import { useEffect, useRef } from 'react';
import { Form, useNavigation, useSearchParams } from 'react-router';
import { PageLink } from '~/components/page-link';
import { MailIcon, PhoneIcon, PinIcon } from '~/components/icons';
import { VisitorTextField } from '~/components/visitor-field';
import { APPLICATION_KINDS, APPLICATION_PATHS } from '~/lib/applications';
import { APPLICATION_TITLE_KEYS } from '~/components/application-form';
import {
  CONTACT_LIMITS,
  CONTACT_LOCATION,
  CONTACT_TEXT,
  HONEYPOT_FIELD,
  subjectFromQuery,
  type ContactField,
  type ContactFieldErrors,
  type ContactResult,
} from '~/lib/contact';
import { metaTranslator, useI18n } from '~/lib/i18n/i18n';
import type { MessageId } from '~/lib/i18n/en';
import { pageMeta, siteFromMatches } from '~/lib/seo';
import { submitContactForm } from '~/server/http/contact-form.server';
import { getRetentionMonths } from '~/server/inbox/messages.server';
import { getLogger } from '~/server/platform/logger.server';
import { RETENTION } from '~/lib/messages';
import { formAnswer, retryAfterHeaders } from '~/server/http/rate-limit.server';
import { requestContext } from '~/server/http/request-context.server';
import type { Route } from './+types/contact';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  const t = metaTranslator(site);
  return pageMeta({ title: t('contact.title'), description: t('meta.contact.description'), path: '/contact', site });
};

/** How long messages are kept (the inbox's retention setting), for the page's privacy sentence. */
export async function loader() {
  try {
    return { retentionMonths: await getRetentionMonths() };
  } catch (error) {
    // The form still shows; the sentence gives the default period.
    getLogger().error({ err: error }, 'the message retention setting could not be read');
    return { retentionMonths: RETENTION.defaultMonths };
  }
}

/** Works as a plain form post (no JavaScript) and as a submission without a reload. */
export async function action({ request, context }: Route.ActionArgs) {
  return formAnswer(await submitContactForm({ request, clientIp: context.get(requestContext).clientIp }));
}

/** spec §4 failed state: a lost connection shows the error banner and keeps what was typed. */
export async function clientAction({ serverAction }: Route.ClientActionArgs): Promise<ContactResult> {
  try {
    return await serverAction();
  } catch {
    return {
      status: 'failed',
      message: CONTACT_TEXT.failed,
      values: { name: '', email: '', phone: '', subject: '', message: '' },
    };
  }
}

export const headers = retryAfterHeaders;

/** The subjects the topic links fill in (in English, as staff read them) and their words on the page. */
const TOPICS: ReadonlyArray<{ subject: string; label: MessageId }> = [
  { subject: 'Partnership', label: 'contact.topic.partnership' },
  { subject: 'Volunteering', label: 'contact.topic.volunteering' },
  { subject: 'Share my story', label: 'contact.topic.story' },
  { subject: 'Book a speaker', label: 'contact.topic.speaker' },
  { subject: 'Training', label: 'contact.topic.training' },
];

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const site = usePublicLayout()?.site;
  const result = actionData;
  const { t } = useI18n();
  const notice = t('contact.privacyNotice', { months: loaderData.retentionMonths });
  return (
    <>
      <section className="bg-indigo-900 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 md:py-16">
          <h1 className="text-4xl font-bold md:text-5xl">{t('contact.title')}</h1>
          <p className="mt-4 max-w-2xl text-lg text-indigo-100">{t('contact.intro')}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-12 md:py-16 lg:grid-cols-3">
        <div className="lg:col-span-2">
          {result?.status === 'sent' ? <SentPanel /> : <ContactForm result={result} notice={notice} />}
        </div>
        <aside aria-labelledby="contact-information" className="space-y-6">
          <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="contact-information" className="text-xl font-bold text-slate-900">
              {t('contact.information')}
            </h2>
            <ul className="mt-5 space-y-5">
              {site && (
                <>
                  <InfoItem icon={<MailIcon />} label={t('contact.email')}>
                    <a href={`mailto:${site.email}`} className="break-all text-indigo-800 underline underline-offset-4">
                      {site.email}
                    </a>
                  </InfoItem>
                  <InfoItem icon={<PhoneIcon />} label={t('contact.phone')}>
                    <a href={`tel:${site.phone.replace(/[^\d+]/g, '')}`} className="text-indigo-800 underline underline-offset-4">
                      {site.phone}
                    </a>
                  </InfoItem>
                </>
              )}
              <InfoItem icon={<PinIcon />} label={t('contact.location')}>
                {CONTACT_LOCATION}
              </InfoItem>
            </ul>
          </section>
          <section aria-labelledby="contact-topics" className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
            <h2 id="contact-topics" className="text-xl font-bold text-slate-900">
              {t('contact.writingAbout')}
            </h2>
            <p className="mt-2 text-slate-700">{t('contact.chooseTopic')}</p>
            <ul className="mt-4 flex flex-wrap gap-2">
              {TOPICS.map((topic) => (
                <li key={topic.subject}>
                  <PageLink
                    to={`/contact?subject=${encodeURIComponent(topic.subject)}`}
                    className="inline-flex min-h-11 items-center rounded-full border border-indigo-200 bg-white px-4 font-medium text-indigo-900 hover:bg-indigo-50"
                  >
                    {t(topic.label)}
                  </PageLink>
                </li>
              ))}
            </ul>
            {/* Issue 27: the four requests that have a form of their own. */}
            <p className="mt-4 text-slate-700">
              {t('contact.orUseForm')}{' '}
              {APPLICATION_KINDS.map((kind, index) => (
                <span key={kind}>
                  {index > 0 && (index === APPLICATION_KINDS.length - 1 ? t('contact.listOr') : ', ')}
                  <a href={APPLICATION_PATHS[kind]} className="font-semibold text-indigo-800 underline underline-offset-4">
                    {t(APPLICATION_TITLE_KEYS[kind])}
                  </a>
                </span>
              ))}
              .
            </p>
          </section>
        </aside>
      </div>
    </>
  );
}

function InfoItem({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-4">
      <span
        className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-indigo-800"
        aria-hidden="true"
      >
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{label}</p>
        <p className="mt-1 text-lg text-slate-900">{children}</p>
      </div>
    </li>
  );
}

/** spec §4 sent: a green panel replaces the form; the fields are gone with it. */
function SentPanel() {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      aria-labelledby="contact-sent"
      className="rounded-2xl border border-emerald-300 bg-emerald-50 p-8 text-emerald-950 shadow-sm"
    >
      {/* `autofocus` too, as the event answer's (decision 401): without the page script the reader lands here. */}
      <h2
        id="contact-sent"
        ref={heading}
        tabIndex={-1}
        data-focus=""
        {...{ autoFocus: true }}
        className="text-2xl font-bold outline-none"
      >
        {t('contact.sent')}
      </h2>
      <p className="mt-3 text-lg">{t('contact.sentDetail')}</p>
      <PageLink
        to="/contact"
        className="mt-6 inline-flex min-h-11 items-center rounded-full bg-indigo-900 px-6 font-semibold text-white hover:bg-indigo-800"
      >
        {t('contact.sendAnother')}
      </PageLink>
    </section>
  );
}

type FormResult = Exclude<ContactResult, { status: 'sent' }> | undefined;

function ContactForm({ result, notice }: { result: FormResult; notice: string }) {
  const { t, tx } = useI18n();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const sending = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const errors: ContactFieldErrors = result?.status === 'invalid' ? result.errors : {};
  const values = result?.values;
  const subject = subjectFromQuery(searchParams.get('subject'));
  const form = useRef<HTMLFormElement>(null);
  const banner = useRef<HTMLDivElement>(null);
  const firstInvalid = (['name', 'email', 'phone', 'subject', 'message'] as const).find((f) => errors[f]);

  // After an answer: the first field to fix gets the focus; other problems put it on the banner.
  useEffect(() => {
    if (!result) return;
    if (firstInvalid) form.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
    else banner.current?.focus();
  }, [result, firstInvalid]);

  const field = (name: ContactField) => ({
    id: `contact-${name}`,
    name,
    error: errors[name],
    defaultValue: values ? values[name] : name === 'subject' ? subject : '',
    focus: name === firstInvalid,
  });

  return (
    <section aria-labelledby="contact-form-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
      <h2 id="contact-form-title" className="text-2xl font-bold text-slate-900">
        {t('contact.formTitle')}
      </h2>
      <p className="mt-2 text-slate-700">{t('contact.allRequired')}</p>
      <p className="mt-2 text-slate-700">{notice}</p>
      {result && (
        <div
          ref={banner}
          role="alert"
          tabIndex={-1}
          data-focus={firstInvalid ? undefined : ''}
          className="mt-6 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950 outline-none"
        >
          {tx(result.message)}
        </div>
      )}
      {/* The key re-creates the fields when a topic link changes the subject in the address. */}
      <Form
        key={subject}
        ref={form}
        method="post"
        noValidate
        data-enhance="swap"
        data-sending={t('contact.sending')}
        data-failed={t('contact.failed')}
        className="mt-6 grid gap-5 sm:grid-cols-2"
      >
        <VisitorTextField {...field('name')} label={t('contact.name')} autoComplete="name" maxLength={CONTACT_LIMITS.name} />
        <VisitorTextField
          {...field('email')}
          label={t('contact.emailField')}
          type="email"
          autoComplete="email"
          maxLength={CONTACT_LIMITS.email}
        />
        <VisitorTextField
          {...field('phone')}
          label={t('contact.phoneOptional')}
          type="tel"
          autoComplete="tel"
          maxLength={CONTACT_LIMITS.phone}
          optional
        />
        <VisitorTextField {...field('subject')} label={t('contact.subject')} maxLength={CONTACT_LIMITS.subject} />
        <VisitorTextField
          {...field('message')}
          label={t('contact.message')}
          multiline
          rows={7}
          maxLength={CONTACT_LIMITS.message}
          hint={t('contact.messageHint')}
          className="sm:col-span-2"
        />
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="contact-website">{t('contact.honeypot')}</label>
          <input id="contact-website" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={sending}
            className="inline-flex min-h-12 items-center justify-center rounded-full bg-amber-400 px-8 text-lg font-semibold text-slate-900 shadow-sm hover:bg-amber-300 disabled:cursor-wait disabled:opacity-70"
          >
            {sending ? t('contact.sending') : t('contact.send')}
          </button>
        </div>
      </Form>
    </section>
  );
}
