// The package's i18n and worker entries point their types at files it does not ship.
declare module 'altcha/i18n/pt-br';
