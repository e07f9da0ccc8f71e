/**
 * Every diagnostic code of the compiler in one table: the one shape of its message, a title, why it
 * is an error and how to fix it. docs/diagnostics.md is generated from it (`npm run docs`), each
 * code with an example taken from the golden tests (test/golden/), and test/language-table.test.ts
 * holds the compiler to it: every code the compiler reports is here, every message fits its
 * code's shape, every code has an example.
 *
 * Adding a code: append an entry (codes are grouped by stage: RB00xx reading the files, RB01xx the
 * YAML's shape, RB02xx declarations, RB03xx syntax, RB04xx collecting rules, RB05xx checking
 * them), report it, add a golden case that triggers it, run `npm run docs`.
 */

export interface CodeInfo {
  code: string;
  severity: 'error' | 'warning';
  /** A few words, the heading in docs/diagnostics.md. */
  title: string;
  /** The message as the author reads it, with ‹placeholders› for what varies. */
  message: string;
  /** Why this is a problem. */
  explain: string;
  /** What to write instead. */
  fix: string;
  /** Why no pack can trigger it on purpose (then it needs no example). */
  noExample?: string;
}

const error = (code: string, title: string, message: string, explain: string, fix: string): CodeInfo => ({ code, severity: 'error', title, message, explain, fix });
const warning = (code: string, title: string, message: string, explain: string, fix: string): CodeInfo => ({ code, severity: 'warning', title, message, explain, fix });

export const diagnosticCodes: readonly CodeInfo[] = [
  // ─── Reading the pack's files ─────────────────────────────────────────────
  error('RB0001', 'Malformed YAML', 'this YAML is malformed: ‹what the YAML reader found›', 'The file is not valid YAML, so nothing in it can be read: an unclosed `{` or `[`, a bad indent, a stray character. A file whose lists and mappings nest more than 1000 levels deep (a line indented past column 1000, its `- ` items counted, or more than 1000 `[` and `{` open at once) is refused before it is read: YAML parsers recurse once a level, and such a file could exhaust the memory of the process. A list or mapping written as a key (`[a, b]: 1`, or a `? ` key followed by one) is refused too: no pack names a thing by a list, and turning such keys into text costs more at every level they nest.', 'Fix the YAML at the caret; the message says what the reader found there. For nesting too deep, close the brackets left open, or write the deep part as entries side by side at a shallower level rather than each inside the one before. For a list or mapping as a key, name the entry with a word or quoted text and put the list or mapping in its value.'),
  error('RB0002', 'No manifest', 'this pack has no manifest `pack.yaml`', 'Every pack starts with a manifest that names it and says how many players it takes.', 'Add a `pack.yaml` with `id`, `version`, `name`, `languages` and `players`.'),
  error('RB0003', 'Missing pack', 'this pack needs the pack `‹id›`, which was not found', 'The manifest `extends` or `dependsOn` a pack that is neither beside this one nor installed in a `node_modules` folder.', 'Put the needed pack folder beside this one, install its package (`npm install ‹id›`), or remove the entry.'),
  error('RB0004', 'Wrong version of a needed pack', 'this pack ‹extends or depends on› `‹id›` ‹range›, but the `‹id›` found is version ‹version›', 'The pack found does not satisfy the version range the manifest asks for.', 'Use a version of that pack inside the range, or widen the range if this pack works with it.'),
  error('RB0005', 'Not a version range', '`‹range›` is not a version range', 'Version ranges are semantic-version ranges such as `^0.1` or `>=1.2 <2`.', 'Write a semantic version range.'),
  error('RB0006', 'Another language version', 'this pack is written for version ‹range› of the rules language; this compiler reads version ‹version›', 'The manifest’s `rulebook:` range does not include the language version of this compiler.', 'Use a rulebook whose language version satisfies the range, or update the pack and its range.'),
  error('RB0007', 'File or pack too large', '‹this file or the pack› ‹is larger than a pack may be›', 'Packs come from strangers: a file or a pack past the size cap is not read, so it cannot exhaust memory.', 'Split the file, or remove what is not rules or cards.'),
  error('RB0008', 'File not read', '‹why the file was left out›', 'The pack folder holds something that is not read: a link out of the folder, a link loop, a file too large to open.', 'Replace the link by the file it points at, or remove it.'),
  error('RB0009', 'Packs that need each other', 'this pack ‹extends or depends on› `‹id›`, which leads back to it: ‹the circle›', 'A circle of packs that extend or depend on each other has no first pack to read.', 'Break the circle: one of the packs must not need the other.'),
  error('RB0010', 'Key given twice', 'the key `‹key›` appears twice in this mapping', 'A YAML mapping holds each key once; the second would silently replace the first.', 'Merge the two entries.'),
  error('RB0011', 'Several YAML documents', 'this file holds more than one YAML document', 'A pack file is one YAML document; what follows a `---` line would be lost.', 'Remove the `---` line, or move what follows it to a file of its own.'),
  error('RB0012', 'YAML that cannot be read', 'this YAML cannot be read: ‹why›', 'The YAML parses but cannot be turned into values: an alias without its anchor, or aliases that multiply a value many times over (an alias bomb).', 'Give each alias its anchor earlier in the file, or write the values out.'),

  // ─── The shape of the YAML ────────────────────────────────────────────────
  error('RB0101', 'Unknown key', 'unknown key `‹key›` in ‹where›', 'The key is not one the pack format knows at that place, often a misspelling.', 'Use the suggested key, or one of the allowed keys the hint lists.'),
  error('RB0102', 'Missing entry', '‹where› needs a `‹key›` entry', 'The pack format requires this entry.', 'Add the entry.'),
  error('RB0103', 'Wrong kind of YAML value', '‹where› should be ‹a mapping, a list, a text, a number …›', 'The value has the wrong YAML form for its place: a list where a mapping belongs, a text where a number does.', 'Write the value in the form the message names.'),
  error('RB0104', 'Wrong form', '‹where› has the wrong form: it must match ‹pattern›', 'The text must follow a pattern, e.g. a pack id is lower-case words joined by dashes.', 'Rewrite the value to match the pattern.'),
  error('RB0105', 'Invalid value', '‹where› ‹what the pack format requires›', 'The value breaks a rule of the pack format not covered by a more specific code.', 'Follow the message.'),
  error('RB0106', 'Players min above max', 'players.min (‹min›) is above players.max (‹max›)', 'No number of players could start a game.', 'Swap the numbers, or correct one of them.'),
  error('RB0107', 'Name reserved by JavaScript', '`‹name›` cannot be ‹what it names›: JavaScript reserves this word on every object', 'Names such as `__proto__` or `constructor` could reach into the runtime’s objects.', 'Pick another name.'),

  // ─── Declarations in YAML ─────────────────────────────────────────────────
  error('RB0201', 'Enum declared twice', 'the enum `‹enum›` is declared twice', 'An enum is declared once; a second declaration would silently change what its name means.', 'Give one of them another name.'),
  error('RB0202', 'Die faces of mixed types', 'the faces of die `‹die›` are neither all numbers nor all members of one enum', 'A roll must have one type, so the rules that read it can be checked.', 'Declare an enum with the face names, e.g. `enums: { face: [hit, block] }`.'),
  error('RB0203', 'Entity of no kind', '`‹word›` is not a kind of this pack, so this entity has no kind', 'An entity starts with `<kind>: <id>`; the first key names its kind.', 'Use the suggested kind, or declare the kind under `kinds:`.'),
  error('RB0204', 'Not an id', '`‹id›` cannot be an id: ids are names such as `north_gate` or `r_12`, not keywords', 'Rules name entities by their id, so an id must be a name and not a word of the language.', 'Rename the entity.'),
  error('RB0205', 'Id used twice', 'the id `‹id›` is used twice', 'Ids are shared by every kind, enum member and die: a rule naming it could mean either.', 'Rename one of them.'),
  error('RB0206', 'Not a type', '`‹text›` is not a type', 'A field’s type is one word such as `number`, `region?` or `list<race>`.', 'Write number, bool, text, an enum or kind name, `name?` for an optional one, or `list<name>`.'),
  error('RB0207', 'Unknown type', 'unknown type `‹name›`', 'The type names no built-in type, enum or kind of the pack.', 'Use the suggested type, or declare the enum or kind.'),
  error('RB0208', 'Unknown field in an entity', 'a ‹kind› has no field `‹key›`', 'The entity gives a value to a field its kind does not declare, often a misspelling.', 'Use the suggested field, or declare it under the kind’s `props` or `state`.'),
  error('RB0209', 'Missing prop', 'the ‹kind› `‹id›` has no `‹prop›`', 'The kind declares a required prop that this entity does not give, and it has no default.', 'Add the prop to the entity, or make it optional with `T?`.'),
  error('RB0210', 'Empty value', '`‹field›` needs ‹a type›, but it is empty', 'The field is not optional, so it needs a value.', 'Write a value, or declare the field as `T?`.'),
  error('RB0211', 'Not a member of the enum', '`‹value›` is not a ‹enum› of this pack', 'The field holds an enum, and the value is none of its members.', 'Use the suggested member, or add it to the enum.'),
  error('RB0212', 'No such entity', 'no ‹kind› is called `‹id›`', 'The field holds an entity of a kind, and no entity of that kind has this id.', 'Use the suggested id, or declare the entity.'),
  error('RB0213', 'Enum member twice', '`‹value›` appears twice in the enum `‹enum›`', 'An enum lists each member once.', 'Remove the second one.'),
  error('RB0214', 'Kind declared twice', 'the kind `‹kind›` is declared twice with props', 'A kind’s props and graph are declared once; a second declaration may only add `state` or `roles`.', 'Merge the props into one declaration.'),
  error('RB0215', 'Field declared twice', '`‹kind›.‹field›` is declared twice', 'A field is declared once, among the props or the state of its kind.', 'Remove one of them, or rename it.'),
  error('RB0216', 'Entity without a kind', 'an entity must start with `<kind>: <id>`', 'The first key of an entity names its kind and its id; this entry has none.', 'Start the entry with `- <kind>: <id>`.'),
  error('RB0217', 'List of nothing', '`list` needs an element type', 'A list holds values of one type, which must be named.', 'Write `list<region>`.'),
  error('RB0218', 'Value of the wrong type', '`‹field›` should be ‹a type›, not ‹what was written›', 'The value written in YAML does not have the field’s type.', 'Write a value of the field’s type: digits for a number, `true` or `false`, one value rather than a mapping.'),
  error('RB0219', 'Not a list', 'this should be a list of ‹type›', 'The field is a list.', 'Write `[a, b]`.'),
  error('RB0220', 'Entity of another kind', '`‹id›` is ‹a kind›, not ‹another kind›', 'The field holds an entity of one kind, and this id names an entity of another.', 'Use an id of the right kind.'),
  error('RB0221', 'Not a field name', '`‹field›` cannot be a field name: fields are names such as `owner` or `hits_2`', 'Rules and scenarios read a field by its name after a dot (`x.owner`), so a field’s name must be a word of the language: letters, digits and `_`, not starting with a digit.', 'Rename the field, e.g. to the suggested name.'),

  // ─── Syntax of the rules ──────────────────────────────────────────────────
  error('RB0301', 'Syntax error', '‹what the parser expected, and what it found›', 'The rules text does not follow the grammar of the language. The declaration is left out (its uses are not reported again) and the others are still read.', 'Follow the message and the hint; docs/language.md shows every declaration and statement.'),
  error('RB0302', 'Nested too deeply', 'this ‹declaration› nests more than ‹n› levels deep (values or blocks inside each other), more than the compiler reads', 'A tree deeper than the compiler reads could exhaust its stack.', 'Split it: name a part with `let`, or move it into an `fn` of its own.'),

  // ─── Collecting the rules ─────────────────────────────────────────────────
  error('RB0401', 'Declaration not allowed on a card', 'a card cannot declare `‹declaration›`: cards add `on`, `modify` and `action` rules, and `fn` helpers of their own', 'A card’s rules react to the game; events, pipelines, checks, procedures, the setup and the flow belong to the game.', 'Move it into the pack’s own `rules:`.'),
  error('RB0402', 'Name declared twice', '`‹name›` is declared twice', 'Events, functions, pipelines, procedures and game actions share one set of names (built-in functions included).', 'Rename or remove one; in a pack that extends another, write `override` to replace the base’s.'),
  error('RB0403', 'Override of nothing that can be replaced', '`override` replaces a declaration of the pack this one extends; this ‹declaration› has none to replace', '`override` is for a pack that extends another, before a named declaration of the game.', 'Remove `override`.'),
  error('RB0404', 'Card action or function declared twice', 'the card `‹card›` declares the ‹action or function› `‹name›` twice', 'A card offers an action once, and names a helper of its own once.', 'Remove or rename one.'),
  error('RB0405', 'Second flow', 'a pack has one `flow`; this is a second one', 'The flow is the game itself, from the first turn to the end.', 'Call procedures from the one flow instead.'),
  error('RB0406', 'Override of a missing declaration', '`override ‹declaration› ‹name›` replaces nothing: the base pack has no `‹name›`', 'There is nothing of that name in the base pack to replace.', 'Remove `override` to declare something new, or correct the name.'),

  // ─── Checking the rules ───────────────────────────────────────────────────
  error('RB0501', 'Wrong type', '‹what› should be ‹a type›, but this is ‹another type›', 'A value has another type than its place needs: a condition must be true or false, an argument the parameter’s type.', 'Write a value of the needed type; the hint says how when it knows (compare a number, test for none first).'),
  error('RB0503', 'Bounds on a value that is no number', 'only a number pipeline can have `min` or `max`', '`min` and `max` clamp a number.', 'Remove the bounds, or make the pipeline a number.'),
  error('RB0504', 'Companion of no game action', '`with ‹action›` names no action of the game', 'A card action offered `with` another is offered beside a game action, which must exist.', 'Name an action of the game’s own rules.'),
  error('RB0505', 'No such event', 'there is no event `‹event›`', 'A trigger or an `emit` names an event the pack does not declare.', 'Use the suggested event, or declare it: `event name(…)`.'),
  error('RB0506', 'Too many names for the parameters', 'the ‹event or pipeline› `‹name›` has ‹n› parameter(s)', 'An `on` or `modify` binds more names than the event or pipeline has parameters.', 'Bind one name per parameter, in order.'),
  error('RB0507', 'No such pipeline', 'there is no pipeline `‹name›` to modify', 'A `modify` names a pipeline the pack does not declare.', 'Use the suggested pipeline, or declare it.'),
  error('RB0508', 'No flow', 'this pack has no `flow`: the runtime does not know how a game goes', 'The flow says how a game goes: its rounds, its turns, its end.', 'Add `flow { … }`.'),
  error('RB0509', 'Recursive procedure', 'the procedure `‹name›` can call itself (‹cycle›), so the rule could loop forever', 'Every rule must finish: repetition is bounded loops, not recursion.', 'Use `for`, `repeat` or `loop max N`.'),
  error('RB0510', 'Domain on a parameter that is not an action’s', 'only an action’s parameters have a domain (`in …`)', 'A domain lists what a player may pick, and only actions are picked by players.', 'Remove the `in …`.'),
  error('RB0511', 'Name defined twice in a rule', '`‹name›` is already defined here', 'Within a rule a name stands for one thing.', 'Pick another name.'),
  error('RB0512', 'Roles outside a card', '`while <role>` belongs on a card’s rules; the game’s own rules always apply', 'Roles say when a card’s rule works; the game’s own rules have none.', 'Remove `while …`.'),
  error('RB0513', 'Unknown role', 'a ‹kind› has no role `‹role›`', 'The rule works in a role the card’s kind does not declare.', 'Use one of the kind’s roles, or declare it under `kinds.<kind>.roles`.'),
  error('RB0515', 'Adding to what is no number or list', '`‹op›` works on numbers and lists; `‹field›` is ‹a type›', '`+=` and `-=` add to numbers and lists.', 'Assign with `=`, or change a number or list field.'),
  error('RB0516', 'Break outside a loop', '`break` is only meaningful inside `for`, `repeat` or `loop`', 'There is no loop to leave.', 'Remove `break`, or put it inside a loop.'),
  error('RB0517', 'Offer of no game action', 'there is no game action `‹action›`', '`offer` offers actions of the game’s own rules.', 'Use the suggested action, or declare it.'),
  error('RB0518', 'Value computed for nothing', 'calling `‹name›` here does nothing: it only computes a value', 'A function, pipeline or built-in gives a value; on its own line the value is lost.', 'Use its value (`let x = …`), or call a `proc`.'),
  error('RB0519', 'Changing a printed property', '`‹field›` is a printed property of ‹kind›, which does not change during play', 'Props are what is printed on a card or board; what changes is `state`.', 'Declare the field under `kinds.<kind>.state`.'),
  error('RB0520', '`it` outside an element', '`it` only means something inside `where` or a per-element argument such as `sum(xs, it.tokens)`', '`it` is the element being looked at; elsewhere there is none.', 'Name the value you mean.'),
  error('RB0521', 'Unknown name', 'unknown name `‹name›`', 'The name is no local, entity, enum member, kind’s plural or special name.', 'Use the suggested name, or declare it.'),
  error('RB0522', 'Field of a value that has none', '‹a type› has no fields, so `.‹field›` means nothing here', 'Only entities have fields.', 'Read the field of an entity.'),
  error('RB0523', 'Unknown field', 'a ‹kind› has no field `‹field›`', 'The kind declares no such prop or state field, often a misspelling.', 'Use the suggested field, or declare it under the kind’s `state`.'),
  error('RB0524', 'Procedure used as a value', '`‹name›` is a procedure: it acts and gives no value', 'Procedures act; they are called as statements.', 'Call it on its own line.'),
  error('RB0525', 'Unknown function', 'unknown function `‹name›`', 'No function, pipeline or built-in has this name.', 'Use the suggested name, or declare the function.'),
  error('RB0526', 'Randomness in a value', '`‹built-in›` uses randomness, which a value (fn, pipeline, modify, when, where) may not', 'Values are computed whenever needed; a random one would differ each time.', 'Roll in an action, trigger or proc and keep the result with `let`.'),
  error('RB0527', 'Graph function on a kind without a graph', '`‹built-in›` needs a graph, and ‹kind› has none', 'Neighbours and distances follow the kind’s graph, which it does not declare.', 'Declare `graph: <list prop>` under the kind.'),
  error('RB0528', 'Roll of no die', '`roll` takes a die of the pack by name', 'Only the pack’s dice can be rolled.', 'Name a die declared under `dice:`.'),
  error('RB0529', 'Comparison that is never true', '‹a type› is never equal to ‹another type›', 'Values of different types are never equal, so the comparison is always false.', 'Compare values of the same type.'),
  error('RB0530', 'Member of another enum', '`‹name›` is not a ‹enum›', 'The value is compared with an enum, and this name belongs to another.', 'Use a member of the enum; the hint lists them.'),
  warning('RB0531', 'Event that sets itself off', 'the event `‹event›` can set itself off again (‹cycle›), so its triggers might fire forever', 'A trigger (through procedures) emits the event it reacts to. The runtime stops a ring that really runs away, but a condition should stop it first.', 'Make sure a condition stops it, or use a separate event for the follow-up.'),
  warning('RB0540', 'Declared but never used', 'the ‹function, pipeline, procedure or event› `‹name›` is never ‹called, asked for or emitted›‹, and what follows›', 'Dead rules mislead whoever reads the pack. Reported once the pack has no errors; a base pack’s declarations are left to the base.', 'Remove it, or use it where the rules need it.'),
  error('RB0541', 'Branches of different types', 'the two branches differ: ‹a type› and ‹another type›', '`if … then … else …` gives one value, so both branches need one type.', 'Make both branches the same type.'),
  error('RB0542', 'Not a list', '‹what needs a list› a list, but this is ‹a type›', '`where`, `in`, `for` and `choose` go over a list.', 'Give a list: a kind’s plural (`regions`), a list field, or a list function.'),
  error('RB0543', 'List of mixed types', 'a list holds one type: this is ‹a type› among ‹type›s', 'The elements of a list have one type.', 'Make every element the same type.'),
  error('RB0544', 'Built-in given the wrong type', '`‹built-in›`: ‹what is wrong with its arguments›', 'A built-in function was given an argument of a type it does not take.', 'Follow the signature in the hint (docs/language.md lists every built-in).'),
  error('RB0545', 'Arithmetic on what is no number', '`‹op›` works on numbers (and lists), but this is ‹a type›', '`+` and `-` add numbers and join lists (and `+` joins text).', 'Use a number, or test an optional value for none first.'),
  error('RB0546', 'Role that names no players', 'the role `‹role›` should give the players who hold the card (a list of players, or one player or none), but this is ‹a type›', 'A role says which players hold a card.', 'Give players, e.g. `players where race == self`.'),
  error('RB0547', 'Pile that is no list', '`‹field›` should be a list (a pile or deck), but it is ‹a type›', '`draw`, `put`, `remove` and `shuffle` work on list fields.', 'Name a list field.'),
  error('RB0548', 'Card action never offered', 'the card action `‹action›` is never offered', 'A card action is offered beside a game action (`with`) or at every offer (`anytime`); this one is neither.', 'Add `with <action>` or `anytime`.'),
  error('RB0549', 'Wrong number of arguments', '`‹name›` takes ‹n› argument(s), not ‹m›', 'A call or `emit` passes one argument per parameter.', 'Pass one argument per parameter.'),
  error('RB0550', 'Wrong number of arguments to a built-in', '`‹built-in›` takes ‹n› argument(s): ‹signature›', 'A built-in function takes a fixed number of arguments.', 'Follow the signature.'),
  error('RB0551', 'Recursive value', '‹the function or pipeline› can call itself (‹cycle›), so its value could never be computed', 'Every value must be computable; a function that needs itself never finishes.', 'Go over a list with `sum`, `count`, `any` or `highest`, or repeat in a `proc`.'),
  error('RB0552', 'Action parameter without a domain', 'the action parameter `‹name›` needs a domain: the values a player may pick', 'A number or text parameter has no finite set of values to offer.', 'Give a domain: `n: number in 1..5` or a list.'),
  error('RB0553', 'Default role that does not exist', 'a ‹kind› has no role `‹role›` to be its default', 'The kind’s `defaultRole` names a role it does not declare.', 'Name one of its roles.'),
  error('RB0554', 'Card word outside a card', '`‹self or holder›` is ‹what it means on a card›; these rules belong to no card', '`self` and `holder` mean the card a rule is written on and its holder; the game’s own rules have neither.', 'Name the entity or player you mean.'),
  error('RB0555', 'Unknown member of an enum', 'unknown name `‹name›`: it is not a ‹enum› of this pack', 'A value of an enum is expected, and the name is none of its members, often a misspelling.', 'Use the suggested member; the hint lists them.'),
  error('RB0556', 'Membership that is never true', '‹a type› is never in a list of ‹another type›', 'A value is never in a list of values of another type.', 'Look for a value of the list’s type.'),

  error('RB0557', 'Field changed outside its procedures', '`‹field›` is ‹lowered, raised or changed› here, but a ‹kind›’s `‹field›` is ‹lowered, raised or changed› only by ‹procedures›', 'The field is declared with `loweredOnlyBy`, `raisedOnlyBy` or `changedOnlyBy`: a rule that must hold for every such change (a loss the cards answer, a cap) is written once in those procedures, and a change made anywhere else would skip it.', 'Call one of the named procedures instead of changing the field; a rule that must change it another way belongs in a new procedure named in the field’s declaration.'),
  error('RB0558', 'Unknown procedure named for a field', '`‹name›` is not a procedure of this pack, so it cannot be named in `‹key›` of `‹kind›.‹field›`', 'Only procedures of the pack’s own rules may be named as the one place a field changes; cards declare no procedures.', 'Name a `proc` of the pack (the hint suggests one), or declare it.'),
  error('RB0559', 'Require without a reason', '`require` without `else "reason"` applies a shared check, and ‹the condition› is not one', 'A `require` tells the player why an action is refused; only a shared `check` may leave out the reason, because each of its own requires gives one.', 'Add `else "why not"`, or declare the check: `check name(params) { require … else "…" }`.'),
  error('RB0560', 'Check used as a value', '`‹check›` is a check: it is applied with `require ‹check›(…)`, not used as a value', 'A check is a list of requires, each with its own reason; it has no true or false value to combine.', 'Write `require name(args)` on a line of its own; for a value, declare a `fn`.'),
  error('RB0561', 'Effect inside a check', 'a check holds only `let` and `require`, not ‹an assignment, a call or a statement’s keyword›', 'A check decides whether something may be done, so listing the choices and refusing one agree; it changes nothing and asks no one.', 'Do it in the action that applies the check.'),
  error('RB0562', 'Check that applies itself', 'the check `‹check›` applies itself, so it could never finish', 'Applying a check puts its statements in place; a check that leads back to itself would never end.', 'Break the circle: a check may apply other checks, none of which leads back to it.'),
  error('RB0563', 'Change rule on a printed property', '`‹kind›.‹field›` is a printed property, which never changes, so `‹key›` means nothing on it', 'Props are printed on the card or board and never change; only a state field can be limited to the procedures that change it.', 'Remove the key, or declare the field under `state` if it changes during play.'),
  error('RB0564', 'Assignment to what is no field', 'only a field can be assigned, such as `me.coins` or `r.tokens`; this is ‹what was written›', 'A rule changes the game by changing a field of the game, a player or an entity; a name, a call or a number cannot be changed.', 'Assign to a field of the value (`x.count = 3`), or keep a new value with `let x = …`.'),
  error('RB0565', 'Value that does nothing', '‹a kind of value› on its own does nothing: a statement is an assignment, a call or a keyword statement', 'A value on a line of its own is computed and lost, often a half-written assignment or a misplaced condition.', 'Use it: `let x = …`, `require … else "…"`, `if … { }`, or assign it to a field.'),
  error('RB0566', 'Pile that is no field', '`‹shuffle, draw, put or remove›` changes a list field, such as `game.deck`; this is ‹what was written›', '`shuffle`, `draw`, `put` and `remove` change a pile kept in a list field of the game, a player or an entity.', 'Name the list field that holds the pile.'),
  error('RB0567', 'Unclosed hole in a text', 'unclosed `{` in text: write `{{` for a literal brace', 'A `{` in a quoted text opens a hole for a value, closed by `}`; without it the rest of the text would be read as a value.', 'Close the hole with `}`, or write `{{` for a brace the player reads.'),
  error('RB0568', 'Hole that holds no value', 'this `{…}` in a text holds no value: ‹what reading it found›', 'A hole `{…}` in a quoted text is replaced by the value it holds when the text is shown, so it must hold one value.', 'Write one value in the hole, such as `{r}` or `{count(xs)}`, or `{{` for a literal brace.'),

  // RB06xx: the presentation (how the playground draws a pack's things; compiler/presentation.ts).
  error('RB0601', 'Presentation of an unknown kind', 'the presentation names the kind `‹kind›`, which this pack does not declare', 'A presentation says how entities of a kind are drawn; this kind has none, often a misspelling.', 'Use the suggested kind, or one the hint lists.'),
  error('RB0602', 'Unknown field in a presentation', '‹a kind› has no field `‹field›` to present', 'The presentation draws a field its kind does not declare, so it would draw nothing.', 'Use the suggested field, or one of the kind’s fields the hint lists.'),
  error('RB0603', 'Field that cannot be drawn so', '`‹kind›.‹field›` is ‹a type›, but this place needs ‹the types it takes›', 'Each place of a presentation draws fields of some types: a count is a number or a list, a marker a bool, a number or an optional value, an owner a player or an entity, `at` a node of a board.', 'Name a field of the type the place needs.'),
  warning('RB0604', 'Colour of nothing', 'the colour of `‹name›` is never used: it is no enum member or entity of this pack', 'The colour table gives colours to enum members and entities; this name is neither, so the colour is never drawn.', 'Use the suggested name, or remove the entry.'),

  // RB062x: protected targets (`guard` and `reach`), checked after the rules type-check.
  error('RB0620', 'Guarded entity changed without reach', 'this card changes ‹`x.field`, or `x` through a procedure› without `reach ‹x›` before it; every ‹kind› is guarded by `‹guard›`', 'The pack guards every entity of this kind (`guard`): a card may change one only after `reach`, which applies the guard’s rule (an immunity, a toll). A path on which the card changes it without reaching it first would skip that rule.', 'Write `reach x` before the change, on every path; among an action’s first statements, the guard also decides which choices are offered.'),
  error('RB0621', 'Reach of what nothing guards', 'nothing guards ‹a type›, so `reach` has no guard to apply', '`reach x` applies the guard of `x`’s kind, and the pack declares none for it.', 'Declare `guard name(x: kind) { … }` in the pack’s own rules, or remove `reach`.'),
  error('RB0622', 'Kind guarded twice', 'a ‹kind› is guarded twice: by `‹guard›` and by `‹guard›`', 'A kind has one guard, the one rule every card passes; two would leave it unclear which a `reach` applies.', 'Merge the two guards into one.'),
  error('RB0623', 'Guard of no kind', 'the guard `‹guard›` must protect one kind of entity: `guard ‹guard›(x: kind)`', 'A guard stands between the cards and the entities of one kind, named by its one parameter.', 'Give the guard one parameter whose type is a kind, such as `r: region`.'),

  error('RB9000', 'Compiler failure', 'the compiler failed on this pack: ‹what went wrong›', 'A bug in rulebook, not in the pack.', 'Report it with the pack attached.'),
].map((c) => (c.code === 'RB9000' ? { ...c, noExample: 'it reports a bug in the compiler itself, which no pack triggers on purpose' } : c));

export const codeTable: ReadonlyMap<string, CodeInfo> = new Map(diagnosticCodes.map((c) => [c.code, c]));

/** The message shape as a pattern: each ‹placeholder› stands for any text. */
export function messagePattern(c: CodeInfo): RegExp {
  const parts = c.message.split(/‹[^›]*›/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`);
}
