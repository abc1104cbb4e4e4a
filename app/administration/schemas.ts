import { z } from "zod";
import { emailAddress } from "~/ui/validation";

export const grantSchema = z.object({ email: emailAddress() });
