// The controller reaches components through context, so tests can render a view with a
// controller over a fake client.
import { createContext, useContext } from 'react';
import type { Controller } from './controller.js';

export const ControllerContext = createContext<Controller | null>(null);

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('useController outside <ControllerContext.Provider>');
  return c;
}
