// @ts-check
// Copying to the clipboard, the one way every page does it: the Clipboard API,
// and where a page or browser blocks it, the text selected in its field so the
// reader can copy it by hand. Either way the outcome is said in `status`.

/**
 * Copies `text`; says `copied` in `status`. When copying is blocked, focuses and
 * selects `field` (if one is given) and says `blocked`. Resolves to true when copied.
 */
export async function copyText(text, { status, field = null, copied = 'Copied.', blocked }) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = copied;
    return true;
  } catch {
    if (field !== null) {
      field.focus();
      field.select();
    }
    status.textContent = blocked;
    return false;
  }
}

/** What `blocked` says for a field that copyText selects: "the link is selected, copy it with Ctrl+C". */
export const blockedSelected = (what) => `Copying is blocked here: the ${what} is selected, copy it with Ctrl+C.`;
