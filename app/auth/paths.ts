/** Where each step of signing in lives. */
export const authPaths = {
  "sign-in": "/auth/sign-in",
  "verify-2fa": "/auth/sign-in/verify-2fa",
  "setup-2fa": "/auth/setup-2fa",
} as const;
