import { useRef, useState, type DragEvent } from 'react';
import { IMAGE_TYPES, PROFILE_PICTURE_MAX_BYTES, PROFILE_UPLOAD_MESSAGES } from '~/lib/uploads';
import { useHydrated } from '~/lib/use-hydrated';
import { Avatar } from './avatar';
import { ImageFileInput, uploadImage } from './image-upload';

/**
 * spec §2: the profile picture uploader: empty, uploading, has image (change, remove); drag and drop
 * or select. With JavaScript the picture uploads at once; without it, the file goes with the form.
 */
export function ProfilePictureUploader({ name, initialUrl }: { name: string; initialUrl: string | null }) {
  const hydrated = useHydrated();
  const [url, setUrl] = useState(initialUrl ?? '');
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function upload(file: File) {
    setError(null);
    // spec §5 (public-side variant): alerts for the wrong type or size. The server checks again.
    if (!IMAGE_TYPES.includes(file.type)) {
      window.alert(PROFILE_UPLOAD_MESSAGES.type);
      return;
    }
    if (file.size > PROFILE_PICTURE_MAX_BYTES) {
      window.alert(PROFILE_UPLOAD_MESSAGES.size);
      return;
    }
    setUploading(true);
    try {
      const result = await uploadImage('/admin/uploads/profile', file);
      // The server's own reason when it gave one; a lost connection gets the spec's words, not the browser's.
      if (result.ok) setUrl(result.url);
      else setError(result.error || PROFILE_UPLOAD_MESSAGES.failed);
    } catch {
      setError(PROFILE_UPLOAD_MESSAGES.failed);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void upload(file);
  }

  const fileInput = (
    <ImageFileInput
      inputRef={input}
      id="profilePictureFile"
      className={hydrated ? 'sr-only' : 'mt-2 block'}
      onFile={(file) => void upload(file)}
    />
  );

  return (
    <fieldset>
      <legend className="font-medium text-slate-900">Profile picture</legend>
      <input type="hidden" name="profilePicture" value={url} />
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- a drop target only; keyboard and screen-reader users have the Choose/Change buttons */}
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-busy={uploading}
        className={`mt-2 flex flex-wrap items-center gap-4 rounded-xl border-2 border-dashed p-4 ${dragging ? 'border-indigo-700 bg-indigo-50' : 'border-slate-300 bg-white'}`}
      >
        {uploading ? (
          <p role="status" className="flex items-center gap-3 font-medium text-slate-800">
            <span
              className="h-5 w-5 animate-spin rounded-full border-2 border-indigo-800 border-t-transparent"
              aria-hidden="true"
            />
            Uploading...
          </p>
        ) : url ? (
          <>
            <Avatar name={name || '?'} src={url} size="h-20 w-20 text-2xl" />
            <div className="flex flex-wrap gap-2">
              <label
                htmlFor="profilePictureFile"
                className="cursor-pointer rounded-lg bg-white px-3 py-2 text-sm font-semibold text-indigo-900 ring-1 ring-slate-300 hover:bg-indigo-50"
              >
                Change picture
              </label>
              <button
                type="button"
                onClick={() => setUrl('')}
                className="rounded-lg bg-white px-3 py-2 text-sm font-semibold text-red-800 ring-1 ring-slate-300 hover:bg-red-50"
              >
                Remove picture
              </button>
            </div>
          </>
        ) : (
          <div className="text-slate-700">
            <p>Drag and drop a picture here, or</p>
            <label
              htmlFor="profilePictureFile"
              className="mt-2 inline-block cursor-pointer rounded-lg bg-indigo-800 px-3 py-2 text-sm font-semibold text-white hover:bg-indigo-900"
            >
              Choose a picture
            </label>
            <p className="mt-2 text-sm text-slate-600">JPEG, PNG, GIF or WebP, up to 2 MB.</p>
          </div>
        )}
        {fileInput}
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
    </fieldset>
  );
}
