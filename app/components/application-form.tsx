import { VisitorTextField } from './visitor-field';
import { Form, useNavigation } from 'react-router';
import { PageLink } from '~/components/page-link';
import type { MessageId } from '~/lib/i18n/en';
import { useI18n } from '~/lib/i18n/i18n';
import {
  APPLICATION_FORM_TEXT,
  APPLICATION_HONEYPOT,
  APPLICATION_LIMITS,
  APPLICATION_TEXT,
  AVAILABILITY,
  availableField,
  CONSENT_LABEL,
  SIGN_LANGUAGE_LEVELS,
  skillField,
  VOLUNTEER_SKILLS,
  type ApplicationFieldErrors,
  type ApplicationKind,
  type ApplicationResult,
  type ApplicationValues,
} from '~/lib/applications';

// Issue 27 part 1: the four application forms (routes/public/application.tsx). Server-rendered
// documents: the fields are plain inputs, refilled from the action's answer, with the error beside
// each field and the focus on the first one to fix (`autofocus` without the page script,
// `data-focus` with it). Every choice is a native radio or checkbox in a fieldset with its legend.

/** Each form's title in the catalogue (the pages that link to the forms name them so). */
export const APPLICATION_TITLE_KEYS: Readonly<Record<ApplicationKind, MessageId>> = {
  volunteer: 'app.volunteer.title',
  partner: 'app.partner.title',
  speaker: 'app.speaker.title',
  design: 'app.design.title',
};

/** What each form is, inside the privacy note's sentence. */
const APPLICATION_WHAT_KEYS: Readonly<Record<ApplicationKind, MessageId>> = {
  volunteer: 'app.what.volunteer',
  partner: 'app.what.partner',
  speaker: 'app.what.speaker',
  design: 'app.what.design',
};

/** The privacy note above a form in the reader's language; the months are the inbox's retention setting. */
export function useApplicationPrivacyNotice(kind: ApplicationKind, retentionMonths: number): string {
  const { t } = useI18n();
  return t('app.privacyNotice', { what: t(APPLICATION_WHAT_KEYS[kind]), months: retentionMonths });
}

type FormResult = Exclude<ApplicationResult, { status: 'sent' }> | undefined;

/** The order the fields appear in: the first with an error gets the focus. */
function fieldOrder(kind: ApplicationKind): string[] {
  if (kind === 'volunteer') return ['name', 'email', 'phone', 'sign_language', 'availability', 'message', 'consent'];
  if (kind === 'partner') return ['organisation', 'name', 'email', 'phone', 'message', 'consent'];
  return ['organisation', 'name', 'email', 'phone', 'date', 'audience', 'message', 'consent'];
}

/**
 * The first field to fix after an answer: \`autofocus\` for a page shown without the page script
 * (as the contact form, decision 401), \`data-focus\` for the script's answer in place.
 */
const focusProps = (focus: boolean) => (focus ? { autoFocus: true, 'data-focus': '' } : {});

export function ApplicationForm({ kind, result, notice }: { kind: ApplicationKind; result: FormResult; notice: string }) {
  const { t, tx } = useI18n();
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const text = APPLICATION_TEXT[kind];
  const errors: ApplicationFieldErrors = result?.status === 'invalid' ? result.errors : {};
  const values: ApplicationValues = result?.values ?? {};
  const firstInvalid = fieldOrder(kind).find((f) => errors[f]);
  const id = (name: string) => `${kind}-${name}`;

  const field = (name: string) => ({
    id: id(name),
    name,
    error: errors[name],
    defaultValue: values[name] ?? '',
    focus: name === firstInvalid,
  });

  return (
    <section aria-labelledby={id('form-title')} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8">
      <h2 id={id('form-title')} className="text-2xl font-bold text-slate-900">
        {kind === 'volunteer' ? t('app.tellAboutYourself') : t('app.tellAboutRequest')}
      </h2>
      <p className="mt-2 text-slate-700">{tx(APPLICATION_FORM_TEXT.required)}</p>
      <div className="mt-4 rounded-lg border-l-4 border-indigo-800 bg-indigo-50 p-4 text-slate-900">
        <h3 className="font-semibold">{t('app.howWeUse')}</h3>
        <p className="mt-1">
          {notice}{' '}
          <PageLink to="/privacy" className="text-indigo-800 underline underline-offset-4">
            {t('app.readPrivacy')}
          </PageLink>
          .
        </p>
      </div>
      {result && (
        <div
          role="alert"
          tabIndex={-1}
          data-focus={firstInvalid ? undefined : ''}
          className="mt-6 rounded-lg border-l-4 border-red-700 bg-red-50 p-4 font-medium text-red-950 outline-none"
        >
          {tx(result.message)}
        </div>
      )}
      <Form
        method="post"
        noValidate
        data-enhance="swap"
        data-sending={tx(APPLICATION_FORM_TEXT.sending)}
        data-failed={tx(APPLICATION_FORM_TEXT.failed)}
        className="mt-6 grid gap-5 sm:grid-cols-2"
      >
        {kind !== 'volunteer' && (
          <VisitorTextField
            {...field('organisation')}
            label={t('app.organisation')}
            autoComplete="organization"
            maxLength={APPLICATION_LIMITS.organisation}
            className="sm:col-span-2"
          />
        )}
        <VisitorTextField
          {...field('name')}
          label={tx(text.nameLabel)}
          autoComplete="name"
          maxLength={APPLICATION_LIMITS.name}
          className="sm:col-span-2"
        />
        <VisitorTextField
          {...field('email')}
          label={kind === 'volunteer' ? t('app.volunteer.email') : t('contact.emailField')}
          type="email"
          autoComplete="email"
          maxLength={APPLICATION_LIMITS.email}
          optional={kind === 'volunteer'}
        />
        <VisitorTextField
          {...field('phone')}
          label={kind === 'volunteer' ? t('app.volunteer.phone') : t('contact.phoneOptional')}
          type="tel"
          autoComplete="tel"
          maxLength={APPLICATION_LIMITS.phone}
          optional
          hint={kind === 'volunteer' ? t('app.volunteer.phoneHint') : undefined}
        />
        {kind === 'volunteer' && (
          <>
            <ChoiceGroup
              id={id('sign_language')}
              legend={t('app.volunteer.signLegend')}
              type="radio"
              error={errors.sign_language}
              focus={firstInvalid === 'sign_language'}
              choices={SIGN_LANGUAGE_LEVELS.map(([value, label]) => ({
                name: 'sign_language',
                value,
                label: tx(label),
                checked: values.sign_language === value,
              }))}
            />
            <ChoiceGroup
              id={id('skills')}
              legend={t('app.volunteer.skillsLegend')}
              type="checkbox"
              choices={VOLUNTEER_SKILLS.map(([value, label]) => ({
                name: skillField(value),
                value: 'yes',
                label: tx(label),
                checked: values[skillField(value)] !== undefined,
              }))}
            />
            <ChoiceGroup
              id={id('availability')}
              legend={t('app.volunteer.availabilityLegend')}
              type="checkbox"
              error={errors.availability}
              focus={firstInvalid === 'availability'}
              choices={AVAILABILITY.map(([value, label]) => ({
                name: availableField(value),
                value: 'yes',
                label: tx(label),
                checked: values[availableField(value)] !== undefined,
              }))}
            />
          </>
        )}
        {(kind === 'speaker' || kind === 'design') && (
          <>
            <VisitorTextField
              {...field('date')}
              label={tx(text.dateLabel ?? 'Date')}
              type="date"
              maxLength={10}
              optional={text.dateOptional}
            />
            <VisitorTextField
              {...field('audience')}
              label={tx(text.audienceLabel ?? 'Audience')}
              hint={text.audienceHint && tx(text.audienceHint)}
              maxLength={APPLICATION_LIMITS.audience}
            />
          </>
        )}
        <VisitorTextField
          {...field('message')}
          label={tx(text.messageLabel)}
          multiline
          maxLength={APPLICATION_LIMITS.message}
          hint={tx(text.messageHint)}
          className="sm:col-span-2"
        />
        <div className="sm:col-span-2">
          {errors.consent && (
            <p id={id('consent-error')} className="font-medium text-red-700">
              {tx(errors.consent)}
            </p>
          )}
          <div className="mt-2 flex items-start gap-3">
            <input
              id={id('consent')}
              name="consent"
              type="checkbox"
              value="yes"
              required
              defaultChecked={values.consent === 'yes'}
              {...focusProps(firstInvalid === 'consent')}
              aria-invalid={errors.consent ? true : undefined}
              aria-describedby={errors.consent ? id('consent-error') : undefined}
              className="mt-1 h-6 w-6 shrink-0 accent-indigo-800"
            />
            <label htmlFor={id('consent')} className="text-lg text-slate-900">
              {tx(CONSENT_LABEL)}
            </label>
          </div>
        </div>
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={id('website')}>{t('contact.honeypot')}</label>
          <input id={id('website')} name={APPLICATION_HONEYPOT} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <div className="sm:col-span-2">
          <button
            type="submit"
            disabled={sending}
            className="inline-flex min-h-12 items-center justify-center rounded-full bg-amber-400 px-8 text-lg font-semibold text-slate-900 shadow-sm hover:bg-amber-300 disabled:cursor-wait disabled:opacity-70"
          >
            {sending ? tx(APPLICATION_FORM_TEXT.sending) : tx(text.send)}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** The answer that replaces the form once it is sent; the focus goes to its heading. */
export function ApplicationSent({ kind }: { kind: ApplicationKind }) {
  const { tx } = useI18n();
  const text = APPLICATION_TEXT[kind];
  return (
    <section
      aria-labelledby="application-sent"
      className="rounded-2xl border border-emerald-300 bg-emerald-50 p-8 text-emerald-950 shadow-sm"
    >
      {/* `autofocus` too, as the event answer's (decision 401): without the page script the reader lands here. */}
      <h2 id="application-sent" tabIndex={-1} data-focus="" {...{ autoFocus: true }} className="text-2xl font-bold outline-none">
        {tx(text.sent)}
      </h2>
      <p className="mt-3 text-lg">{tx(text.sentDetail)}</p>
      <PageLink
        to="/"
        className="mt-6 inline-flex min-h-11 items-center rounded-full bg-indigo-900 px-6 font-semibold text-white hover:bg-indigo-800"
      >
        {tx(APPLICATION_FORM_TEXT.another)}
      </PageLink>
    </section>
  );
}

function ChoiceGroup(props: {
  id: string;
  legend: string;
  type: 'radio' | 'checkbox';
  error?: string | undefined;
  focus?: boolean;
  choices: { name: string; value: string; label: string; checked: boolean }[];
}) {
  const { tx } = useI18n();
  const errorId = props.error ? `${props.id}-error` : undefined;
  return (
    <fieldset className="sm:col-span-2" aria-describedby={errorId}>
      <legend className="font-semibold text-slate-900">{props.legend}</legend>
      {props.error && (
        <p id={errorId} className="mt-1 font-medium text-red-700">
          {tx(props.error)}
        </p>
      )}
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {props.choices.map((choice, i) => {
          const inputId = `${props.id}-${i}`;
          const focus = props.focus && i === 0;
          return (
            <div key={inputId} className="flex min-h-11 items-center gap-3">
              <input
                id={inputId}
                name={choice.name}
                type={props.type}
                value={choice.value}
                defaultChecked={choice.checked}
                {...focusProps(!!focus)}
                aria-invalid={props.error ? true : undefined}
                className="h-6 w-6 shrink-0 accent-indigo-800"
              />
              <label htmlFor={inputId} className="text-lg text-slate-900">
                {choice.label}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
