// The contract suite against the service itself, in process: the reference every
// transport must match.
import { describeContract } from '../../../test/support/contract-suite.js';

describeContract('the service, called directly', async (service) => ({ api: service, close: async () => {} }));
