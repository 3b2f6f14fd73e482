// Issue 14: the sign-language video's choice of file, for the pages that show one. The page's markup
// (app/server/media/sign-language-markup.server.ts) already plays the 360p file with captions and the
// transcript without any script; this chunk, loaded only by pages with a video, adds what needs one:
// the 240p file when the visitor saves data or the connection is slow (decided before anything is
// fetched: preload none), and a switch between the two that goes on from the same moment.

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** Save-Data on, or a connection the browser rates 3G or slower. */
function prefersSmallFile(): boolean {
  // Issue 24: the page was sent for Save-Data (the header reaches the server even where the browser
  // does not tell scripts).
  if (document.documentElement.hasAttribute('data-save-data')) return true;
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return Boolean(connection?.saveData) || ['slow-2g', '2g', '3g'].includes(connection?.effectiveType ?? '');
}

/**
 * Issue 28: tells the site (no one else) that the video was started and how far it got: a quarter,
 * half, three quarters, the end. One small beacon for each, once per page load, without cookies;
 * the server leaves out what it leaves out for page views (Do Not Track, staff, bots).
 */
function countPlays(video: HTMLVideoElement): void {
  const sent = new Set<number>();
  const send = (milestone: number) => {
    if (sent.has(milestone) || typeof navigator.sendBeacon !== 'function') return;
    sent.add(milestone);
    navigator.sendBeacon('/count/video', JSON.stringify({ p: location.pathname, m: milestone }));
  };
  video.addEventListener('play', () => send(0));
  video.addEventListener('timeupdate', () => {
    if (!(video.duration > 0)) return;
    const share = (video.currentTime / video.duration) * 100;
    for (const milestone of [25, 50, 75]) if (share >= milestone) send(milestone);
  });
  video.addEventListener('ended', () => send(100));
}

class SignLanguageVideo extends HTMLElement {
  connectedCallback(): void {
    // Defined before the parser reached the player's insides (the script came first): wait for them.
    const start = () => {
      const video = this.querySelector('video');
      if (video && !video.dataset.counted) {
        video.dataset.counted = '1';
        countPlays(video);
      }
      this.enhance();
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
    else start();
  }

  private enhance(): void {
    const video = this.querySelector('video');
    const choice = this.querySelector<HTMLFieldSetElement>('fieldset[data-quality]');
    if (!video || !choice || !choice.hidden) return;
    const facts = this.querySelector('p[data-facts]');
    const radios = [...choice.querySelectorAll<HTMLInputElement>('input[type="radio"]')];

    const show = (radio: HTMLInputElement) => {
      const src = radio.dataset.src;
      if (!src || video.getAttribute('src') === src) return;
      // Go on from the same moment in the other file.
      const at = video.currentTime;
      const playing = !video.paused;
      video.src = src;
      if (facts && radio.dataset.facts) facts.textContent = radio.dataset.facts;
      if (at > 0 || playing)
        video.addEventListener(
          'loadedmetadata',
          () => {
            video.currentTime = at;
            if (playing) void video.play().catch(() => undefined);
          },
          { once: true },
        );
    };

    const small = radios.find((radio) => radio.value === '240p');
    const untouched = video.paused && video.currentTime === 0 && video.networkState !== HTMLMediaElement.NETWORK_LOADING;
    if (small && untouched && prefersSmallFile()) {
      small.checked = true;
      show(small);
    }
    choice.addEventListener('change', (event) => {
      if (event.target instanceof HTMLInputElement && event.target.checked) show(event.target);
    });
    choice.hidden = false;
  }
}

if (!customElements.get('sign-language-video')) customElements.define('sign-language-video', SignLanguageVideo);
