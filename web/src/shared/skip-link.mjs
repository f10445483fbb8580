// @ts-check
// "Skip to content", every page's first link (page.css shows it on focus). Without
// JavaScript it is a plain link to #content. With it, a click moves the focus to
// the page's <main> without writing #content into the address: the playground,
// the storm lab and the compare page keep their link in the fragment.
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? /** @type {HTMLAnchorElement | null} */ (event.target.closest('a.skip-link')) : null;
  const target = link ? document.getElementById(link.hash.slice(1)) : null;
  if (!target) return;
  event.preventDefault();
  target.focus();
  target.scrollIntoView({ block: 'start' });
});
