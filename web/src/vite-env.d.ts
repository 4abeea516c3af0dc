/// <reference types="vite/client" />

/** The product version from the root package.json, injected by vite.config.ts (`define`). */
declare const __APP_VERSION__: string;
