/** A guide id: what issues, URLs and the upload form name a guide by (shared by the server and the form). */
export const GUIDE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const guideIdMessage = "A guide id is 1 to 63 lower-case letters, digits and dashes.";
