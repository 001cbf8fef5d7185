// Scenario mode, pure: header parsing, turn counting from a conversation, and compiling a
// script turn into planned items (program callers, multi-agent refs, interleaving).
import { describe, expect, it } from 'vitest';
import { SimIds } from './ids.js';
import { SimOptionsError } from './options.js';
import { chatTurns, compileTurn, modelBlocks, parseScenarioHeader, scenarioTurn, SCENARIOS } from './scenario.js';
import { RESEARCH_TEAM, teamTurn } from './scenarios/research.js';

const compile = (script: Parameters<typeof compileTurn>[0], multiAgent = false, openProgram: string | null = null) =>
  compileTurn(script, { ids: new SimIds(), openProgram, multiAgent, encryptedReasoning: false });

describe('x-sim-scenario', () => {
  it('parses a name with an optional turn and rejects anything else loudly', () => {
    expect(parseScenarioHeader(undefined)).toBeNull();
    expect(parseScenarioHeader('coding')).toMatchObject({ scenario: { name: 'coding' }, turn: null });
    expect(parseScenarioHeader('coding:3')).toMatchObject({ turn: 3 });
    expect(() => parseScenarioHeader('codin')).toThrow(/unknown scenario "codin"; known: support, coding/);
    expect(() => parseScenarioHeader('coding:x')).toThrow(SimOptionsError);
    const ref = parseScenarioHeader('support')!;
    expect(() => scenarioTurn(ref, 7)).toThrow(
      /has 3 turns \(0-2\); this request is turn 7 \(counted from the conversation\)/,
    );
  });

  it('every scenario compiles every turn in order', () => {
    for (const scenario of SCENARIOS) {
      let open: string | null = null;
      for (const turn of scenario.turns) {
        const compiled = compile(turn, scenario.name === 'research', open);
        expect(compiled.items.length).toBeGreaterThan(0);
        open = compiled.openPrograms.at(-1) ?? open;
      }
    }
  });
});

describe('turn counting', () => {
  it('counts runs of model output a stateless client resent', () => {
    const user = { role: 'user', content: 'q' };
    const out = { type: 'function_call_output', call_id: 'c', output: '{}' };
    expect(modelBlocks('just text')).toBe(0);
    expect(modelBlocks([user])).toBe(0);
    expect(
      modelBlocks([user, { type: 'reasoning' }, { type: 'function_call' }, { type: 'function_call' }, out, out]),
    ).toBe(1);
    expect(modelBlocks([user, { type: 'function_call' }, out, { role: 'assistant', content: 'a' }, user])).toBe(2);
    expect(
      chatTurns([{ role: 'system' }, { role: 'user' }, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant' }]),
    ).toBe(2);
  });
});

describe('compileTurn', () => {
  it('gives a program its calls (caller_id = the program call_id) and leaves it open', () => {
    const { items, openPrograms } = compile([
      {
        type: 'program',
        code: 'x',
        calls: [
          { name: 'a', arguments: {} },
          { name: 'b', arguments: { n: 1 } },
        ],
      },
    ]);
    const program = items[0]!;
    if (program.type !== 'program') throw new Error('program first');
    expect(items.slice(1).map((i) => i.type === 'function_call' && i.caller)).toEqual([program.callId, program.callId]);
    expect(openPrograms).toEqual([program.callId]);
    const next = compile([{ type: 'program_output', result: '3' }], false, program.callId);
    expect(next.items[0]).toMatchObject({ type: 'program_output', callId: program.callId });
    expect(() => compile([{ type: 'program_output', result: '3' }])).toThrow(/no program left open/);
  });

  it('joins multi-agent outputs to their calls and defaults agents to root', () => {
    const { items } = compile(teamTurn(RESEARCH_TEAM), true);
    const calls = items.filter((i) => i.type === 'multi_agent_call');
    const outputs = items.filter((i) => i.type === 'multi_agent_call_output');
    expect(outputs.map((o) => o.type === 'multi_agent_call_output' && o.callId)).toEqual(
      calls.map((c) => c.type === 'multi_agent_call' && c.callId),
    );
    expect(items.at(-1)).toMatchObject({ type: 'message', agent: 'root' });
    // Members work concurrently: their first items come round-robin, before any report.
    const afterWait = items.slice(
      items.findIndex((i) => i.type === 'multi_agent_call' && i.action === 'wait_agent') + 1,
    );
    expect(afterWait.slice(0, 3).map((i) => i.agent)).toEqual(RESEARCH_TEAM.members.map((m) => m.name));
  });
});
