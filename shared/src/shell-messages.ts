/**
 * The catalogue's texts that the portal shows before any page has loaded: the logout toasts and the
 * crash screen. They live in a module of their own, which messages.ts includes, so that the portal's
 * entry chunk carries these three texts and not the whole catalogue.
 */
export const SHELL_MESSAGES = {
  erroInterno: 'Ocorreu um erro interno, contate o administrador do sistema',
  sessaoEncerrada: 'Sessão encerrada com sucesso',
  inatividade: 'Você foi deslogado do sistema por inatividade. Favor entrar no sistema novamente.',
} as const;
