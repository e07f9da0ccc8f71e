/** The tabs under the editor, in the order of the tab bar: the one place a tab is registered. */
import type { AppContext } from '../context.ts';
import { BalanceTab } from './balance.ts';
import { CardTextsTab } from './card-texts.ts';
import { ProblemsTab } from './problems.ts';
import { ScenariosTab } from './scenarios.ts';
import type { Tab } from './tab.ts';

export type { Tab } from './tab.ts';

export function makeTabs(ctx: AppContext, lang: () => string): Tab[] {
  return [new ProblemsTab(ctx), new ScenariosTab(ctx), new CardTextsTab(ctx), new BalanceTab(ctx, lang)];
}
