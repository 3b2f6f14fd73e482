import { useRef, useState } from 'react';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES, IMAGE_TYPES } from '~/lib/uploads';
import { ALT_MAX, type ContentType } from '~/lib/content-form';
import { useToast } from '../toast';
import { ImageFileInput, uploadImage } from './image-upload';

/**
 * The featured image: uploaded as soon as it is chosen (with JavaScript) or sent with the form
 * (without), plus the description that visitors who cannot see it will hear. The content form posts
 * to /admin/uploads/content with its type; the service form to /admin/uploads/services.
 */
export function FeaturedImage({
  type,
  endpoint = '/admin/uploads/content',
  legend = 'Featured image',
  initialUrl,
  initialAlt,
  error,
  altError,
  altMax = ALT_MAX,
  altRequired = false,
}: {
  /** Sent with the upload (the content endpoint stores it in that type's folder). */
  type?: ContentType;
  /** The upload endpoint (same JSON answer and rules for every one). */
  endpoint?: string;
  legend?: string;
  initialUrl: string;
  initialAlt: string;
  error: string | undefined;
  altError?: string | undefined;
  altMax?: number;
  /** Marks the description as required (it is whenever there is a picture). */
  altRequired?: boolean;
}) {
  const toast = useToast();
  const [url, setUrl] = useState(initialUrl);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const message = problem ?? error;

  async function upload(file: File) {
    setProblem(undefined);
    if (!IMAGE_TYPES.includes(file.type)) return setProblem(CONTENT_UPLOAD_MESSAGES.type);
    if (file.size > CONTENT_IMAGE_MAX_BYTES) return setProblem(CONTENT_UPLOAD_MESSAGES.size);
    setUploading(true);
    try {
      const result = await uploadImage(endpoint, file, type ? { type } : {});
      if (!result.ok) {
        setProblem(result.error ?? CONTENT_UPLOAD_MESSAGES.failed);
        if (!result.error || result.status >= 500) toast('error', CONTENT_UPLOAD_MESSAGES.failed);
        return;
      }
      setUrl(result.url);
      toast('success', CONTENT_UPLOAD_MESSAGES.uploaded);
    } catch {
      setProblem(CONTENT_UPLOAD_MESSAGES.failed);
      toast('error', CONTENT_UPLOAD_MESSAGES.failed);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <fieldset className="space-y-3">
      <legend className="font-medium text-slate-900">{legend}</legend>
      <input type="hidden" name="imageUrl" value={url} />
      {url && (
        <div className="flex flex-wrap items-end gap-4">
          <img
            src={url}
            alt=""
            width={240}
            height={135}
            className="aspect-video w-60 rounded-lg object-cover ring-1 ring-slate-300"
          />
          <button
            type="button"
            onClick={() => {
              setUrl('');
              toast('success', CONTENT_UPLOAD_MESSAGES.removed);
            }}
            className="rounded-lg bg-white px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-slate-300 hover:bg-red-50"
          >
            Remove image
          </button>
        </div>
      )}
      <div>
        <label htmlFor="imageFile" className="block text-sm font-medium text-slate-800">
          {url ? 'Replace the image' : 'Choose an image'} (JPEG, PNG, GIF or WebP, up to 5 MB)
        </label>
        <ImageFileInput
          inputRef={input}
          id="imageFile"
          disabled={uploading}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? 'image-error' : undefined}
          onFile={(file) => void upload(file)}
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-800 file:px-3 file:py-2 file:font-semibold file:text-white"
        />
        {uploading && (
          <p role="status" className="mt-1 text-sm text-slate-700">
            Uploading...
          </p>
        )}
        {message && (
          <p id="image-error" className="mt-1 text-sm font-medium text-red-800">
            {message}
          </p>
        )}
      </div>
      <div>
        <label htmlFor="imageAlt" className="block text-sm font-medium text-slate-800">
          Image description (alt text)
        </label>
        <input
          id="imageAlt"
          name="imageAlt"
          defaultValue={initialAlt}
          maxLength={altMax}
          aria-invalid={altError ? true : undefined}
          aria-describedby={altError ? 'imageAlt-error imageAlt-hint' : 'imageAlt-hint'}
          className={`mt-1 block w-full rounded-lg border-2 px-3 py-2 text-slate-900 ${altError ? 'border-red-700' : 'border-slate-300'}`}
        />
        <p id="imageAlt-hint" className="mt-1 text-sm text-slate-600">
          What the picture shows, for visitors who cannot see it.{altRequired && ' Required when there is an image.'}
        </p>
        {altError && (
          <p id="imageAlt-error" className="mt-1 text-sm font-medium text-red-800">
            {altError}
          </p>
        )}
      </div>
    </fieldset>
  );
}
