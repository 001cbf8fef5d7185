// Renderer entry: picks the API transport (desktop bridge or headless server) and mounts the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/create-client.js';
import { App } from './app/App.js';
import { startTokenWorker } from './context/token-client.js';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App api={createApiClient()} />
  </StrictMode>,
);
// After the first paint, so the tokenizer loads off the main thread while the first run does.
setTimeout(startTokenWorker, 0);
