// How the project starts Debian's Chromium (headless) for the browser suites, bench:page and
// Lighthouse: one list of flags, so a measurement and a test see the same browser.
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Off: network and update chatter that is noise in a measurement, the sandbox (root in a
 * container), the GPU (none here), and the omnibox's WebUI popups. Chromium 156's headless
 * browser builds those popups (chrome://omnibox-popup.top-chrome/) for every new window, in a
 * renderer of their own: about 0.7 s of CPU per browser context on this machine, more than
 * the playground page itself, and it competed with the page while it loaded.
 */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'];
