/**
 * `@name` in a team note: which agents it mentions (pure). An agent is named by its full name
 * ("@Dana Lee"), its first name when no other agent shares it ("@dana"), or its id; case does not
 * matter, the longest name wins, and an `@` inside a word (an email address) is not a mention.
 */

export interface NamedAgent {
  id: string;
  name: string;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

export function parseMentions(text: string, agents: readonly NamedAgent[]): string[] {
  const aliases = aliasesOf(agents);
  const found = new Set<string>();
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && WORD_CHAR.test(lower[at - 1] ?? '')) continue;
    const rest = lower.slice(at + 1);
    const match = aliases.find(
      ({ alias }) => rest.startsWith(alias) && !WORD_CHAR.test(rest[alias.length] ?? ''),
    );
    if (match) found.add(match.id);
  }
  return [...found];
}

/** Every way to name each agent, longest first so "@Dana Lee" beats "@Dana". */
function aliasesOf(agents: readonly NamedAgent[]): Array<{ alias: string; id: string }> {
  const firstNames = new Map<string, number>();
  for (const agent of agents) {
    const first = firstWord(agent.name);
    firstNames.set(first, (firstNames.get(first) ?? 0) + 1);
  }
  const aliases: Array<{ alias: string; id: string }> = [];
  for (const agent of agents) {
    const full = agent.name.trim().toLowerCase();
    const first = firstWord(agent.name);
    aliases.push({ alias: full, id: agent.id }, { alias: agent.id.toLowerCase(), id: agent.id });
    if (first !== full && firstNames.get(first) === 1) aliases.push({ alias: first, id: agent.id });
  }
  return aliases.filter(({ alias }) => alias !== '').sort((a, b) => b.alias.length - a.alias.length);
}

function firstWord(name: string): string {
  return name.trim().toLowerCase().split(/\s+/)[0] ?? '';
}
