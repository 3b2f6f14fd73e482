import { useEffect, useState, type FormEvent } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import {
  FEATURES_SHOWN,
  parseFeatures,
  SERVICE_ALT_MAX,
  SERVICE_DESCRIPTION_MAX,
  SERVICE_FEATURES_MAX,
  SERVICE_MESSAGES,
  SERVICE_TITLE_MAX,
  type ServiceErrors,
  type ServiceField,
  type ServiceFormFailure,
} from '~/lib/services';
import { serviceSchema } from '~/lib/service-schema';
import { useHydrated } from '~/lib/use-hydrated';
import type { VideoFormState } from '~/lib/video-upload';
import { CAPTIONS_MESSAGES } from '~/lib/webvtt';
import { Banner } from './banner';
import { checkPostedForm, focusFirstError } from './form-checks';
import { FeaturedImage } from './featured-image';
import { Field, inputClass, primaryButton, useTypedState } from './form';
import { SignLanguageVideo } from './sign-language-video';
import { EasyReadField } from './easy-read-field';

export interface ServiceFormValues {
  title: string;
  description: string;
  /** One feature per line. */
  features: string;
  imageUrl: string;
  imageAlt: string;
  /** Issue 26: the easy-read text. */
  easyRead: string;
}

export const EMPTY_SERVICE: ServiceFormValues = {
  title: '',
  description: '',
  features: '',
  imageUrl: '',
  imageAlt: '',
  easyRead: '',
};

/** Where focus goes for each field when it is the first one in error. */
const FOCUS_ID: Record<ServiceField, string> = {
  title: 'title',
  description: 'description',
  features: 'features',
  imageUrl: 'imageFile',
  imageAlt: 'imageAlt',
  easyRead: 'easyRead',
};
const ORDER: ServiceField[] = ['title', 'description', 'features', 'imageUrl', 'imageAlt', 'easyRead'];

const focusFirst = (errors: ServiceErrors) => focusFirstError(errors, ORDER, FOCUS_ID);

/**
 * The Add service / Edit service form: title with a counter, plain-text description, features one per
 * line, picture with its description, and (issue 14) a sign-language video with its captions and
 * transcript. Checked in the browser for quick feedback and again on the server; posts to its route's
 * action with or without JavaScript (uploading a video needs JavaScript).
 */
export function ServiceForm({
  mode,
  initial,
  failure,
  video = null,
  videoUnavailable = null,
  cancelTo = '/admin/services',
}: {
  mode: 'create' | 'edit';
  initial: ServiceFormValues;
  /** The action's answer to a post that failed. */
  failure?: ServiceFormFailure | undefined;
  /** Issue 14: the service's sign-language video as stored, and why video processing is unavailable (or null). */
  video?: VideoFormState | null;
  videoUnavailable?: string | null;
  cancelTo?: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formMethod?.toLowerCase() === 'post';
  // What staff typed before the script ran is kept (useTypedState).
  const [title, setTitle, titleRef] = useTypedState(initial.title);
  const [description, setDescription, descriptionRef] = useTypedState(initial.description);
  const [features, setFeatures, featuresRef] = useTypedState(initial.features);
  const [errors, setErrors] = useState<ServiceErrors>(failure?.errors ?? {});
  const [message, setMessage] = useState<string | undefined>(failure?.message);
  const featureCount = parseFeatures(features).length;

  // After a post that failed, put the cursor where the first problem is.
  useEffect(() => {
    if (failure) focusFirst(failure.errors);
  }, [failure]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Every save of a service is public at once, so a video needs its captions now.
    const { found } = checkPostedForm(new FormData(event.currentTarget), serviceSchema, {
      goesPublic: true,
      message: CAPTIONS_MESSAGES.requiredForService,
    }) as { found: ServiceErrors };
    if (Object.keys(found).length === 0) {
      setErrors({});
      setMessage(undefined);
      return; // the form posts itself
    }
    event.preventDefault();
    setErrors(found);
    setMessage(SERVICE_MESSAGES.fixErrors);
    focusFirst(found);
  }

  const clearError = (name: ServiceField) => setErrors((e) => (e[name] ? { ...e, [name]: undefined } : e));

  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      onSubmit={hydrated ? onSubmit : undefined}
      className="max-w-3xl space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm md:p-8"
    >
      {message && <Banner key={message} type="error" message={message} autoClose={false} />}
      <Field
        id="title"
        label="Title"
        required
        note={`${title.length}/${SERVICE_TITLE_MAX} characters`}
        noteId="title-count"
        noteWarns={title.length > SERVICE_TITLE_MAX}
        error={errors.title}
      >
        {(control) => (
          <input
            {...control}
            name="title"
            ref={titleRef}
            value={title}
            onChange={(e) => {
              setTitle(e.target.value);
              clearError('title');
            }}
            className={inputClass(Boolean(errors.title))}
          />
        )}
      </Field>
      <Field
        id="description"
        label="Description"
        required
        note={`${description.length}/${SERVICE_DESCRIPTION_MAX.toLocaleString('en-US')} characters. Plain text.`}
        noteId="description-count"
        noteWarns={description.length > SERVICE_DESCRIPTION_MAX}
        error={errors.description}
      >
        {(control) => (
          <textarea
            {...control}
            name="description"
            ref={descriptionRef}
            rows={5}
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              clearError('description');
            }}
            className={inputClass(Boolean(errors.description))}
          />
        )}
      </Field>
      <Field
        id="features"
        label="Features"
        note={`One per line, up to ${SERVICE_FEATURES_MAX} (${featureCount} now). The services page shows the first ${FEATURES_SHOWN}; the service's own page shows them all.`}
        noteId="features-hint"
        noteWarns={featureCount > SERVICE_FEATURES_MAX}
        error={errors.features}
      >
        {(control) => (
          <textarea
            {...control}
            name="features"
            ref={featuresRef}
            rows={6}
            value={features}
            onChange={(e) => {
              setFeatures(e.target.value);
              clearError('features');
            }}
            className={inputClass(Boolean(errors.features))}
          />
        )}
      </Field>
      <FeaturedImage
        endpoint="/admin/uploads/services"
        legend="Image"
        initialUrl={initial.imageUrl}
        initialAlt={initial.imageAlt}
        error={errors.imageUrl}
        altError={errors.imageAlt}
        altMax={SERVICE_ALT_MAX}
        altRequired
      />
      <SignLanguageVideo
        initial={failure?.video ? failure.video.state : video}
        unavailable={videoUnavailable}
        errors={{ video: errors.video, captions: errors.captions, transcript: errors.transcript }}
        initialTranscript={failure?.video?.transcript}
        captionsRule="Required to save a service with a video."
      />
      <EasyReadField initial={initial.easyRead} error={errors.easyRead} onChange={() => clearError('easyRead')} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" disabled={saving} className={primaryButton}>
          {saving ? 'Saving...' : mode === 'create' ? 'Add service' : 'Save changes'}
        </button>
        <Link
          to={cancelTo}
          className="rounded-lg border-2 border-slate-300 px-5 py-2 font-semibold text-slate-800 hover:bg-slate-100"
        >
          Cancel
        </Link>
      </div>
    </Form>
  );
}
