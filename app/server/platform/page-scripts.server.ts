// The addresses of the scripts some pages add outside React (vite.config.ts, pageScripts();
// docs/decisions/021-video-without-page-weight.md). The server's entry (server/app.ts, built by Vite)
// sets them from the build; until then they are the source files, as the development server serves
// them, so modules that name a script also load in plain Node (the bench) and in tests.

export interface PageScripts {
  signLanguageVideo: string;
  reading: string;
  serviceWorker: string;
}

let scripts: PageScripts = {
  signLanguageVideo: '/app/client/sign-language-video.ts',
  reading: '/app/client/reading.ts',
  serviceWorker: '/app/client/service-worker.ts',
};

export function setPageScripts(built: PageScripts): void {
  scripts = { ...built };
}

export function pageScript(name: keyof PageScripts): string {
  return scripts[name];
}
