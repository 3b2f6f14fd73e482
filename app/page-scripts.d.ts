// The addresses of the scripts some pages add outside React (vite.config.ts, pageScripts()).
declare module 'virtual:page-scripts' {
  const scripts: { signLanguageVideo: string; reading: string; serviceWorker: string };
  export default scripts;
}
