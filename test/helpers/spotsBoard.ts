/**
 * Five spots, each near two to four others, owned by a player and hit a number of times, and the
 * game's total: a board whose walks along `s.near` read a state field of each element (read by
 * entity number on the generated engine). A test gives the rules: `claim`, `pass` and a flow.
 */
export function spotsBoard(rules: string): string {
  return `kinds:
  spot:
    props:
      near: list<spot>
    state:
      owner: player?
      hits: number
  game:
    state:
      total: number
entities:
  - spot: s1
    near: [s2, s3]
  - spot: s2
    near: [s1, s3, s4]
  - spot: s3
    near: [s1, s2, s4, s5]
  - spot: s4
    near: [s2, s3, s5]
  - spot: s5
    near: [s3, s4]
rules: |
  ${rules.trim().replace(/\n/g, '\n  ')}
`;
}
