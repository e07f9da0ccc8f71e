/** What the playground's parts share: the workspace, the engine, the editor and the pack being edited. */
import type { PackEditor } from './editor.ts';
import type { EngineClient } from './engine-client.ts';
import type { Diagnostic, PackSummary } from './engine-types.ts';
import type { CompileResponse } from './protocol.ts';
import type { Workspace } from './workspace.ts';

export interface AppContext {
  readonly ws: Workspace;
  readonly engine: EngineClient;
  readonly editor: PackEditor;
  /** The pack open (`content/…`, `local/…`) and its files as edited. */
  readonly packKey: string;
  readonly files: Record<string, string>;
  /** The last compile's answer and diagnostics. */
  readonly lastCompile: CompileResponse | undefined;
  readonly diagnostics: Diagnostic[];
  /** The last pack that compiled without errors, which the game, scenarios and bots run on, and its version. */
  readonly summary: PackSummary | undefined;
  readonly version: number;
  toast(message: string, kind?: 'info' | 'error', link?: string): void;
  /** The id of the tab open under the editor. */
  readonly openTab: string;
  /** Draw the tabs under the editor again. */
  renderTabs(): void;
}
