import { describe, expect, it } from 'vitest';
import { REVISION_MESSAGES, revisionVideoNote, type RevisionVideo } from './revisions';

const video = (id: string): RevisionVideo => ({ id, name: `${id}.mp4`, durationSeconds: 95, captions: true });

describe('what the revision view says about a video', () => {
  it('says nothing when the revision had the current video, or did not record one', () => {
    expect(revisionVideoNote(video('a'), 'a')).toBeNull();
    expect(revisionVideoNote(null, null)).toBeNull();
    // Saved before videos were recorded: nothing is known, so nothing is claimed.
    expect(revisionVideoNote(undefined, 'a')).toBeNull();
    expect(revisionVideoNote(undefined, null)).toBeNull();
  });

  it('says a restore keeps the current video when the revision had another, none, or one removed since', () => {
    expect(revisionVideoNote(video('a'), 'b')).toBe(REVISION_MESSAGES.videoReplaced);
    expect(revisionVideoNote(video('a'), null)).toBe(REVISION_MESSAGES.videoRemoved);
    expect(revisionVideoNote(null, 'b')).toBe(REVISION_MESSAGES.videoAdded);
  });
});
