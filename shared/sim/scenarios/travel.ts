// The same travel-planning task twice: a stateless Chat Completions loop that resends its
// whole history every turn, and the Responses API with previous_response_id, which sends
// only what is new. Two user turns, five model turns; the turns answer either API.
import { functionTool, type Scenario } from './types.js';

export const TRAVEL_SYSTEM = 'You are a travel planner. Use the tools for facts; keep plans within the budget.';

export const TRAVEL_ASKS = [
  'Plan two days in Lisbon next weekend for two people, about EUR 400 in total excluding flights.',
  'Day 2 dinner should be vegetarian. Can you swap it?',
];

export const TRAVEL_TOOLS = [
  functionTool('get_weather', 'Daily forecast for a city.', { city: { type: 'string' }, days: { type: 'integer' } }),
  functionTool('search_hotels', 'Hotels under a nightly price.', {
    city: { type: 'string' },
    max_price_eur: { type: 'number' },
    nights: { type: 'integer' },
  }),
  functionTool('find_restaurants', 'Restaurants by neighbourhood and cuisine.', {
    city: { type: 'string' },
    area: { type: 'string' },
    cuisine: { type: 'string' },
  }),
];

export const TRAVEL_TOOL_RESULTS: Record<string, (args: Record<string, unknown>) => unknown> = {
  get_weather: () => ({
    forecast: [
      { day: 'Sat', high_c: 22, rain: '10%' },
      { day: 'Sun', high_c: 20, rain: '40%' },
    ],
  }),
  search_hotels: () => ({
    results: [
      { name: 'Casa do Largo', area: 'Alfama', price_eur: 95, rating: 4.6 },
      { name: 'LX Rooms Chiado', area: 'Chiado', price_eur: 118, rating: 4.4 },
    ],
  }),
  find_restaurants: (args) =>
    args['cuisine'] === 'vegetarian'
      ? { results: [{ name: 'Ao 26 Vegan Food Project', area: 'Chiado', price_pp_eur: 22 }] }
      : {
          results: [
            { name: 'Taberna da Rua das Flores', area: 'Chiado', price_pp_eur: 28 },
            { name: 'Cervejaria Ramiro', area: 'Anjos', price_pp_eur: 40 },
          ],
        },
};

export const TRAVEL_SCENARIO: Scenario = {
  name: 'travel',
  title: 'Stateless chat loop beside previous_response_id',
  description: 'One trip plan done twice: Chat Completions resending its history, and Responses continuing by id.',
  turns: [
    [
      { type: 'function_call', name: 'get_weather', arguments: { city: 'Lisbon', days: 2 } },
      { type: 'function_call', name: 'search_hotels', arguments: { city: 'Lisbon', max_price_eur: 120, nights: 1 } },
    ],
    [
      {
        type: 'function_call',
        name: 'find_restaurants',
        arguments: { city: 'Lisbon', area: 'Chiado', cuisine: 'portuguese' },
      },
    ],
    [
      {
        type: 'message',
        text:
          'Here is a two-day plan for EUR ~385. Stay at Casa do Largo in Alfama (EUR 95/night). Saturday (22 C, dry): ' +
          'Castelo de Sao Jorge in the morning, tram 28 to Chiado, dinner at Taberna da Rua das Flores (~EUR 56 for two). ' +
          'Sunday (40% rain): Gulbenkian Museum, pasteis in Belem, dinner at Cervejaria Ramiro (~EUR 80). Budget left ' +
          'for transport and museums: about EUR 150.',
      },
    ],
    [
      {
        type: 'function_call',
        name: 'find_restaurants',
        arguments: { city: 'Lisbon', area: 'Chiado', cuisine: 'vegetarian' },
      },
    ],
    [
      {
        type: 'message',
        text:
          'Swapped: Sunday dinner is now Ao 26 Vegan Food Project in Chiado (~EUR 44 for two) instead of Cervejaria ' +
          'Ramiro. That also frees about EUR 36, so the total comes to roughly EUR 350.',
      },
    ],
  ],
};
