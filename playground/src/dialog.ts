/** Small modal dialogs in the page's own style, instead of the browser's prompt and confirm. */
import { h } from './dom.ts';

function open(build: (close: (value: string | null) => void) => HTMLElement[], focus?: HTMLElement): Promise<string | null> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog', 'data-testid': 'dialog' });
    const close = (value: string | null) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.append(...build(close));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      close(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    focus?.focus();
    if (focus instanceof HTMLInputElement) focus.select();
  });
}

/** Ask for a line of text; null when cancelled. */
export function ask(title: string, hint: string, initial: string, action: string): Promise<string | null> {
  const input = h('input', { type: 'text', value: initial, 'data-testid': 'dialog-input', spellcheck: 'false' });
  return open((close) => {
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && input.value.trim()) close(input.value.trim());
    });
    return [
      h('h3', null, title),
      h('p', { class: 'note' }, hint),
      input,
      h('div', { class: 'dialog-actions' },
        h('button', { class: 'ghost', onclick: () => close(null) }, 'Cancel'),
        h('button', { class: 'primary', 'data-testid': 'dialog-ok', onclick: () => input.value.trim() && close(input.value.trim()) }, action),
      ),
    ];
  }, input);
}

/** Ask to confirm something that cannot be undone. */
export async function confirmAction(title: string, text: string, action: string): Promise<boolean> {
  const ok = h('button', { class: 'primary danger', 'data-testid': 'dialog-ok' }, action);
  const v = await open((close) => {
    ok.addEventListener('click', () => close('ok'));
    return [h('h3', null, title), h('p', { class: 'note' }, text), h('div', { class: 'dialog-actions' }, h('button', { class: 'ghost', onclick: () => close(null) }, 'Cancel'), ok)];
  }, ok);
  return v === 'ok';
}
