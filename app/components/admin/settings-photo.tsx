import { useRef, useState } from 'react';
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_UPLOAD_MESSAGES, IMAGE_TYPES } from '~/lib/uploads';
import { useHydrated } from '~/lib/use-hydrated';
import { useToast } from '../toast';
import { ImageFileInput, uploadImage } from './image-upload';

/**
 * The founder's photo: uploaded to /admin/uploads/site as soon as it is chosen (with JavaScript) or
 * sent with the form (without), the same rules as a story's picture. Saved with the Founder section;
 * without a photo the site shows the first letter of the name.
 */
export function SettingsPhoto({
  initialUrl,
  name,
  error,
  onEdit,
}: {
  initialUrl: string;
  /** The founder's name, for the preview's description. */
  name: string;
  error: string | undefined;
  onEdit: () => void;
}) {
  const hydrated = useHydrated();
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
      const result = await uploadImage('/admin/uploads/site', file);
      if (!result.ok) {
        setProblem(result.error ?? CONTENT_UPLOAD_MESSAGES.failed);
        return;
      }
      setUrl(result.url);
      onEdit();
      toast('success', `${CONTENT_UPLOAD_MESSAGES.uploaded} Save the Founder section to show it.`);
    } catch {
      setProblem(CONTENT_UPLOAD_MESSAGES.failed);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <fieldset className="space-y-3">
      <legend className="font-medium text-slate-900">Founder’s photo</legend>
      <input type="hidden" name="founderPhoto" value={url} />
      {url ? (
        <div className="flex flex-wrap items-end gap-4">
          <img
            src={url}
            alt={`${name}, as the site shows them`}
            width={128}
            height={128}
            className="h-32 w-32 rounded-full object-cover ring-1 ring-slate-300"
          />
          {hydrated ? (
            <button
              type="button"
              onClick={() => {
                setUrl('');
                onEdit();
              }}
              className="rounded-lg bg-white px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-slate-300 hover:bg-red-50"
            >
              Remove photo
            </button>
          ) : (
            <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
              <input type="checkbox" name="founderPhotoRemove" className="h-5 w-5" />
              Remove the photo (the first letter of the name shows instead)
            </label>
          )}
        </div>
      ) : (
        <p className="text-sm text-slate-600">No photo: the site shows the first letter of the founder’s name.</p>
      )}
      <div>
        <label htmlFor="founderPhotoFile" className="block text-sm font-medium text-slate-800">
          {url ? 'Replace the photo' : 'Choose a photo'} (JPEG, PNG, GIF or WebP, up to 5 MB; a square one fits best)
        </label>
        <ImageFileInput
          inputRef={input}
          id="founderPhotoFile"
          disabled={uploading}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? 'founderPhoto-error' : undefined}
          onFile={(file) => void upload(file)}
          className="mt-1 block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-indigo-800 file:px-3 file:py-2 file:font-semibold file:text-white"
        />
        {uploading && (
          <p role="status" className="mt-1 text-sm text-slate-700">
            Uploading...
          </p>
        )}
        {message && (
          <p id="founderPhoto-error" className="mt-1 text-sm font-medium text-red-800">
            {message}
          </p>
        )}
      </div>
    </fieldset>
  );
}
