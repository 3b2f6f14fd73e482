import { describe, expect, it } from 'vitest';
import { VIDEO_TEXTS, type PublicVideo } from '../../lib/video.ts';
import { signLanguageMarkup } from './sign-language-markup.server.ts';

const VIDEO: PublicVideo = {
  durationSeconds: 125,
  posterUrl: '/media/videos/1_clip-poster.jpg',
  captionsUrl: '/media/videos/1_clip.vtt',
  transcript: 'We sign <b>every</b> Saturday & Sunday.\n\n"Come" along.',
  width: 640,
  height: 360,
  files: [
    { quality: '360p', url: '/media/videos/1_clip-360p.mp4', bytes: 4_100_000 },
    { quality: '240p', url: '/media/videos/1_clip-240p.mp4', bytes: 2_000_000 },
  ],
};

describe('signLanguageMarkup', () => {
  const markup = signLanguageMarkup(VIDEO);

  it('links to the player with the duration and size of the 360p file', () => {
    expect(markup.link).toContain('href="#sign-language-video"');
    expect(markup.link).toContain(`${VIDEO_TEXTS.watch} <span class="font-normal">(2 min · 4.1 MB)</span>`);
  });

  it('plays the 360p file with captions on, fetching nothing but the poster before play', () => {
    expect(markup.player).toMatch(
      /<video controls preload="none" playsinline poster="\/media\/videos\/1_clip-poster\.jpg"[^>]* src="\/media\/videos\/1_clip-360p\.mp4"/,
    );
    expect(markup.player).toContain(
      '<track kind="captions" src="/media/videos/1_clip.vtt" srclang="en" label="English" default>',
    );
  });

  it('offers the choice of file only once the script can make it work', () => {
    expect(markup.player).toMatch(/<fieldset data-quality hidden/);
    expect(markup.player).toContain('value="240p" data-src="/media/videos/1_clip-240p.mp4" data-facts="2 min · 2.0 MB"');
    expect(markup.player).toContain(`${VIDEO_TEXTS.smaller} (240p, 2.0 MB)`);
    expect(markup.script).toMatch(/sign-language-video/);
  });

  it('writes the transcript as text, paragraph by paragraph', () => {
    expect(markup.player).toContain(
      '<p>We sign &lt;b&gt;every&lt;/b&gt; Saturday &amp; Sunday.</p><p>&quot;Come&quot; along.</p>',
    );
    expect(markup.player).not.toContain('<b>');
  });

  it('leaves the transcript out when there is none', () => {
    expect(signLanguageMarkup({ ...VIDEO, transcript: '  ' }).player).not.toContain('<details');
  });
});
