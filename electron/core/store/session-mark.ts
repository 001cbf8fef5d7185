// The `meta` key a writer sets while its session is open (interrupted-session.ts). It lives
// apart so opening a recording can tell an unclean stop without loading the recovery code.
export const OPEN_SESSION = 'open_session_first_id';
