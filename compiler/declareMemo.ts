import type { Declared, EntitySym, RulesUnit } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import type { LoadedFile, LoadedPack } from './load.ts';
import type { Presentation } from './presentation.ts';

/** What declaring one file's cards found: its entities and their rules texts, in order, and what was reported on the way. */
export interface FileCards {
  entities: EntitySym[];
  units: RulesUnit[];
  broken: string[];
  diagnostics: DiagnosticInput[];
}

/** What the declaration pass makes of the pack's vocabulary (enums, kinds and their fields, dice, scoring), and what it reported. */
export interface KeptVocabulary {
  enums: Declared['enums'];
  members: Declared['members'];
  kinds: Declared['kinds'];
  dice: Declared['dice'];
  scoring: Declared['scoring'];
  /** Reported while the files' vocabularies were merged. */
  merged: DiagnosticInput[];
  /** Reported while the fields' types and defaults were resolved. */
  fields: DiagnosticInput[];
  /** The text of everything an entity's values are checked against (declare.ts, `valueTypes`). */
  types: string;
}

/** The game's own rules texts, in order, and what parsing them reported. */
export interface GameUnits {
  units: RulesUnit[];
  broken: string[];
  diagnostics: DiagnosticInput[];
}

interface Last {
  manifest?: LoadedFile;
  files: LoadedFile[];
  vocabulary: KeptVocabulary;
  cards: Map<LoadedFile, FileCards>;
  game: GameUnits;
  presentation?: { value: Presentation; diagnostics: DiagnosticInput[] };
}

/**
 * What the declaration pass found in the last compile of a session, so that an edit of cards
 * declares again only the files it changed. The vocabulary, the game's rules texts, the
 * presentation and the cards of every other file are taken as they were when each file that
 * changed since has the same outline before and after: no rules of the game or presentation, the
 * same vocabulary written in the same places, the same cards by kind and id in the same order.
 * Then everything the rest of the pack was declared against (the vocabulary, which ids exist and
 * of which kind) is unchanged, and so is what was found in it. The objects taken again are the last compile's own: no pass after
 * the declaration changes them (an entity's checked values are written once, on the entity made
 * for them; the nesting check replaces a unit rather than changing it).
 *
 * `outline(file)` is the test of a file (declare.ts): a text of what it declares but its cards'
 * contents, or undefined for a file with rules of the game or a presentation.
 */
export class DeclareMemo {
  private last: Last | undefined;
  /** What checking an entity's values reported, by entity: an entity taken again is not checked again. */
  readonly values = new WeakMap<EntitySym, DiagnosticInput[]>();

  constructor(private readonly outline: (file: LoadedFile) => string | undefined) {}

  /** The last compile's findings, when only files of the same outline changed since (see above). */
  unchanged(pack: LoadedPack): { vocabulary: KeptVocabulary; game: GameUnits; cards: (file: LoadedFile) => FileCards | undefined } | undefined {
    const last = this.last;
    if (!last || last.manifest !== pack.manifest || last.files.length !== pack.files.length) return undefined;
    for (let i = 0; i < pack.files.length; i++) {
      const now = pack.files[i];
      const then = last.files[i];
      if (now === then) continue;
      if (now.path !== then.path) return undefined;
      const declared = this.outline(now);
      if (declared === undefined || declared !== this.outline(then)) return undefined;
    }
    return {
      vocabulary: last.vocabulary,
      game: last.game,
      // A clash of ids is reported with where the other card is, which may be in a file that changed: such a file is declared again.
      cards: (file) => {
        const found = last.cards.get(file);
        return found && !found.diagnostics.some((x) => x.code === 'RB0205') ? found : undefined;
      },
    };
  }

  /** Keeps this compile's findings; its presentation is the last one's when it took the last vocabulary (`unchanged`). */
  keep(pack: LoadedPack, vocabulary: KeptVocabulary, cards: Map<LoadedFile, FileCards>, game: GameUnits): void {
    const taken = vocabulary === this.last?.vocabulary;
    this.last = { manifest: pack.manifest, files: pack.files, vocabulary, cards, game, presentation: taken ? this.last?.presentation : undefined };
  }

  /** The presentation `read` gives, called after `declare`: the last compile's when this one took the last findings. */
  presentation(report: (d: DiagnosticInput) => void, read: (report: (d: DiagnosticInput) => void) => Presentation): Presentation {
    const last = this.last;
    if (last?.presentation) {
      for (const x of last.presentation.diagnostics) report(x);
      return last.presentation.value;
    }
    const diagnostics: DiagnosticInput[] = [];
    const value = read((x) => {
      diagnostics.push(x);
      report(x);
    });
    if (last) last.presentation = { value, diagnostics };
    return value;
  }
}
