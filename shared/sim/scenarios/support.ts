// Support desk (played with @openai/agents): a triage agent hands a duplicate-charge
// complaint to a billing specialist, who fetches the account, the recent charges and the
// refund policy in parallel, then answers.
import { functionTool, type Scenario } from './types.js';

export const SUPPORT_CUSTOMER = {
  email: 'dana.whitfield@example.com',
  question:
    "Hi, I was charged twice for my Pro annual renewal this month (EUR 228 each). I'm in Germany. " +
    'Can you refund the duplicate? My email is dana.whitfield@example.com.',
};

export const SUPPORT_AGENTS = { triage: 'Triage agent', billing: 'Billing specialist' } as const;

/** The name @openai/agents gives the handoff tool to the billing specialist. */
export const SUPPORT_HANDOFF_TOOL = 'transfer_to_Billing_specialist';

export const SUPPORT_TOOLS = [
  functionTool('lookup_customer', 'Find a customer account by email.', { email: { type: 'string' } }),
  functionTool('list_recent_charges', 'Charges on the customer card in the last N days.', {
    email: { type: 'string' },
    days: { type: 'integer' },
  }),
  functionTool('get_refund_policy', 'The refund policy for a plan in a region.', {
    plan: { type: 'string', enum: ['free', 'pro', 'team', 'enterprise'] },
    region: { type: 'string', enum: ['US', 'EU', 'UK', 'APAC'] },
  }),
];

/** What the billing tools return; the demo client plays them, the answer quotes them. */
export const SUPPORT_TOOL_RESULTS: Record<string, unknown> = {
  lookup_customer: {
    customer_id: 'cus_Q3x9LmTq0Wd2',
    name: 'Dana Whitfield',
    plan: 'pro',
    billing: 'annual',
    region: 'EU',
    card: 'visa ending 4417',
    customer_since: '2021-03-14',
  },
  list_recent_charges: {
    charges: [
      {
        id: 'ch_3PqL0a',
        date: '2025-03-03',
        amount: 228.0,
        currency: 'EUR',
        description: 'Pro annual renewal',
        status: 'succeeded',
      },
      {
        id: 'ch_3PqM7c',
        date: '2025-03-04',
        amount: 228.0,
        currency: 'EUR',
        description: 'Pro annual renewal (retry)',
        status: 'succeeded',
      },
    ],
  },
  get_refund_policy: {
    duplicate_charges: 'refunded in full, no approval needed',
    refund_window_days: 30,
    processing_time: '5-10 business days',
  },
};

export const SUPPORT_SCENARIO: Scenario = {
  name: 'support',
  title: 'Support agent with a handoff and three parallel tool calls',
  description: 'A triage agent hands off to billing, which calls three tools in parallel and answers (@openai/agents).',
  turns: [
    [
      {
        type: 'reasoning',
        summary: 'The customer reports a duplicate charge. Refunds belong to billing, so hand off.',
      },
      { type: 'function_call', name: SUPPORT_HANDOFF_TOOL, arguments: {} },
    ],
    [
      {
        type: 'reasoning',
        summary:
          'I need the account, the recent charges and the refund policy. None depends on another, so fetch all three at once.',
      },
      { type: 'function_call', name: 'lookup_customer', arguments: { email: SUPPORT_CUSTOMER.email } },
      { type: 'function_call', name: 'list_recent_charges', arguments: { email: SUPPORT_CUSTOMER.email, days: 30 } },
      { type: 'function_call', name: 'get_refund_policy', arguments: { plan: 'pro', region: 'EU' } },
    ],
    [
      {
        type: 'message',
        text:
          "Hi Dana, you're right: your Pro annual renewal (EUR 228.00) was charged twice, on 3 March and again on " +
          '4 March when a card retry went through a second time. Duplicate charges are refunded in full under our ' +
          'EU policy, so I have refunded the second charge (ch_3PqM7c). You will see EUR 228.00 back on your Visa ' +
          'ending 4417 within 5-10 business days. Your plan itself is unchanged. Sorry for the trouble!',
      },
    ],
  ],
};
