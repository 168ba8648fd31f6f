/** The public pages send a visitor who already has a session to / (the token lives only in the browser). */
import { useEffect } from "react";
import { storedToken } from "../lib/api.ts";

/** Goes to / once hydrated when a token is stored. */
export function useLeaveIfSignedIn(): void {
  useEffect(() => {
    if (storedToken()) location.replace("/");
  }, []);
}
