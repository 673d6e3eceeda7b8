import { warmUp } from './warm-up';

jest.setTimeout(30_000);

it('renders the sample invoice of the warm-up without an error', async () => {
  await expect(warmUp()).resolves.toBeGreaterThan(0);
});
