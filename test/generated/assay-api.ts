// Generated from /openapi.json by openapi-typescript (npm run api-types). Do not edit.
export interface paths {
    "/api/anonymous/assessment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an assessment for an existing candidate */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choosing (1 to 255 printable ASCII characters, such as a UUID) that makes a retry of this create safe: the same key with the same request within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. Keys belong to the API key that sent them. */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description Property names match case-insensitively; unknown properties are ignored. */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 0 = TMA170, 1 = TMA312, 2 = SPI (SAPA Personality Inventory). */
                        AssessmentType: number;
                        /** @description Extension: when the link stops working, an ISO-8601 date-time with a time zone, in the future. Default: ASSESSMENT_EXPIRY_DAYS (90) after creation. */
                        ExpiresAt?: string;
                        /** @description Caller-supplied candidate id, unique across the system. */
                        ExternalId: string;
                        /** @description Where the candidate goes on completion; absolute http(s). */
                        ReturnUrl?: string;
                        /** @description Extension: e-mail the candidate an invitation with the link (true), or not (false). Omitted: the portal's default, which is off unless set. Needs SMTP_URL on the server: without it, true is a 400. Past the server's caps on invitations to one address an hour or per tenant a minute, 429 with Retry-After, and nothing is created. */
                        SendInvitation?: boolean;
                        /** @description Basic password; needs WebhookUsername. */
                        WebhookPassword?: string;
                        /** @description Receives one POST on completion; absolute http(s), public address. */
                        WebhookUrl?: string;
                        /** @description Basic user for the webhook POST. */
                        WebhookUsername?: string;
                    };
                };
            };
            responses: {
                /** @description Created, in the success envelope */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                /** @description The assessment token: the last path segment of AssessmentUrl. */
                                AnalysisId: string;
                                /** @description {portal_domain}/anonymous/analyse/start/{AnalysisId} */
                                AssessmentUrl: string;
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 201;
                        };
                    };
                };
                /** @description `NoCandidateFound`: no candidate of yours has this ExternalId; `InvalidAssessmentType`: AssessmentType is missing or not 0, 1 or 2; `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read; `WebhookUrlNotAllowed`: the WebhookUrl names a loopback, private or other non-public address; `InvalidJson`: the body is not valid JSON, or is empty */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `IdempotencyKeyInUse`: a request with this Idempotency-Key is still in progress; see Retry-After */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `PayloadTooLarge`: the body is over 64 KiB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `UnsupportedMediaType`: a body is sent with another Content-Type than application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `IdempotencyKeyReused`: this Idempotency-Key was used in the last 24 hours with another request (method, path or body) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Look up an assessment (extension)
         * @description Not in the original specification. Status, timestamps, progress, the webhook attempt and, once completed (and released by the candidate where the portal asks), the raw scale scores, the consistency score, integrity flags and the norm group pinned at completion. Only the caller's own tenant's assessments are visible; others are 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                AnalysisId: string;
                                /** @description Statements answered so far: the candidate's progress. */
                                AnsweredItems: number;
                                AssessmentType: number;
                                AssessmentUrl: string;
                                CancelledAt: string | null;
                                CompletedAt: string | null;
                                /** @description Once completed: 0–100, the within-person correlation of designated item pairs, or of the norm group's synonym pairs (0 when negative or without variation); see docs/RESULTS.md "Results". */
                                ConsistencyScore: number | null;
                                /** @description Once completed: the instrument's content version it was taken in. Null before completion, and for assessments completed before Assay recorded it. */
                                ContentVersion: string | null;
                                /** Format: date-time */
                                CreatedAt: string;
                                ExpiresAt: string | null;
                                ExternalId: string;
                                /** @description Once completed: StraightLining, Speeding, LowConsistency, EvenOdd, Synonyms, LongString, Outlier; see docs/RESULTS.md "Results". */
                                IntegrityFlags: null | ("StraightLining" | "Speeding" | "LowConsistency" | "EvenOdd" | "Synonyms" | "LongString" | "Outlier")[];
                                /** @description Once completed: the language the portal showed when the candidate finished. Null before completion, and for assessments completed before Assay recorded it. */
                                Language: "nl" | "en" | null;
                                /** @description The norm group the stens and percentiles are against: the one in force when the assessment was completed. Null when none was. */
                                NormGroup: null | {
                                    CollectedFrom: string | null;
                                    CollectedTo: string | null;
                                    Id: string;
                                    /** @description True for the shipped example: simulated, never for selection decisions. */
                                    Illustrative: boolean;
                                    Name: string;
                                    SampleSize: number;
                                    Source: string;
                                };
                                /** @description Once completed: a signed link to the report on the portal domain, for people without API credentials. It expires (REPORT_LINK_DAYS). */
                                ReportUrl: string | null;
                                /** @description Whether the candidate must release the results before they are shown (a portal setting), and their answer. */
                                ResultsRelease: "NotRequired" | "Pending" | "Released" | "Declined";
                                Scores: null | {
                                    Items: number;
                                    Mean: number;
                                    Name: string;
                                    Raw: number;
                                    Scale: string;
                                }[];
                                StartedAt: string | null;
                                /** @description Expired: not completed before ExpiresAt. Cancelled: withdrawn with DELETE. Both are final; no webhook is sent for them. */
                                Status: "Created" | "Started" | "Completed" | "Expired" | "Cancelled";
                                /** @description Statements in the questionnaire. */
                                TotalItems: number;
                                Webhook: null | {
                                    AttemptedAt: string | null;
                                    /** @description Attempts so far: the automatic one and any manual redeliveries. The log: GET …/webhooks. */
                                    Attempts: number;
                                    DurationMs: number | null;
                                    Error: string | null;
                                    ResponseStatus: number | null;
                                    Status: "NotSent" | "Pending" | "Sending" | "Delivered" | "Failed" | "Unknown";
                                };
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Cancel an assessment (extension)
         * @description Not in the original specification. The status becomes Cancelled and the candidate's link shows that the questionnaire was withdrawn. Cancelling again (or after expiry) is no error. A completed assessment cannot be cancelled (409): erase the candidate's data instead. No webhook is sent.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                AnalysisId: string;
                                /** Format: date-time */
                                CancelledAt: string;
                                /** @enum {string} */
                                Status: "Cancelled";
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `AlreadyCompleted`: the assessment is completed */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/emails": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mail log of an assessment (extension)
         * @description Every invitation and reminder: its status, attempts, the SMTP server's last reply and its times, with the recipient masked. Empty when none was asked for. Erasure removes it with the assessment. Another tenant's assessment is 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                Attempts: number;
                                /** Format: date-time */
                                CreatedAt: string;
                                /**
                                 * Format: date-time
                                 * @description When it may go: its reminder time, or its next try.
                                 */
                                DueAt: string;
                                Id: string;
                                Kind: "Invitation" | "Reminder";
                                LastAttemptAt: string | null;
                                /** @description The SMTP server's last reply, or why it was not sent; addresses in it masked. */
                                LastReply: string | null;
                                /** @description The address it went to, masked (a***@example.com); null before a try. */
                                Recipient: string | null;
                                /** @description api:<key id> for an invitation sent again on request; null when automatic. */
                                RequestedBy: string | null;
                                SentAt: string | null;
                                /** @description Pending: waiting for its time (a reminder) or its next try after a transient failure. Failed: refused by the SMTP server (5xx), or retried for 24 hours in vain. Cancelled: not sent, the assessment was over or a resend replaced it. */
                                Status: "Pending" | "Sending" | "Sent" | "Failed" | "Cancelled";
                            }[];
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/invitation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail the invitation to the candidate again (extension)
         * @description Queues the invitation once more (202); it goes out within seconds, and is retried for up to 24 hours if the SMTP server cannot take it. A reminder that was waiting is cancelled: the new invitation schedules its own. At most 3 per assessment per hour, and within the server's caps on invitations per address an hour and per tenant a minute (then 429 with Retry-After). 409 NotSendable when the assessment is completed, cancelled or expired, or an invitation is on its way. 400 when the server has no SMTP_URL. No body needed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted, in the success envelope */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                MessageId: string;
                                /** @enum {string} */
                                Status: "Pending";
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 202;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotSendable`: the invitation cannot be sent again: the assessment is completed, cancelled or expired, or an invitation is waiting or on its way (innererror.reason says which) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `UnsupportedMediaType`: a body is sent with another Content-Type than application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The report of a completed assessment (extension)
         * @description An accessible HTML page (default) or a PDF (`?format=pdf` or `Accept: application/pdf`), in `?lang=nl|en`. An unfinished assessment, or another tenant's, is 404. When the candidate has not released the results (a portal setting), 409 ResultsNotReleased. For people without API credentials, give them the ReportUrl from the status lookup or the results endpoint.
         */
        get: {
            parameters: {
                query?: {
                    /** @description pdf, or send Accept: application/pdf; HTML otherwise. */
                    format?: "html" | "pdf";
                    /** @description Language; else Accept-Language, else English. */
                    lang?: "nl" | "en";
                };
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                        "text/html": string;
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ResultsNotReleased`: the candidate has not released the results (a portal setting) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/report-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke the share links of a report (extension)
         * @description Not in the original specification. Every share link (ReportUrl) of this assessment made so far stops working at once, on every instance; the status lookup and the results endpoint then give a new one. 404 when the assessment is not the caller's tenant's or has no report (not completed, or erased).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                AnalysisId: string;
                                /**
                                 * @description Every share link made before now stops working; ReportUrl gives a new one.
                                 * @enum {boolean}
                                 */
                                Revoked: true;
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/webhook/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the completion webhook once more (extension)
         * @description Not in the original specification, which allows one attempt: this is an operator's explicit act, never automatic, and how a delivery lost (Unknown after a crash) or refused by a receiver that was down is recovered. The same body is sent once more. At most 5 manual attempts per assessment per hour (then 429); 409 NotRedeliverable when the assessment is not completed, has no WebhookUrl, or an attempt is under way. No body needed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted, in the success envelope */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                AttemptId: string;
                                /** @enum {string} */
                                Status: "Pending";
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 202;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotRedeliverable`: the assessment is not completed, has no WebhookUrl, or an attempt is pending or sending (innererror.reason says which) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `UnsupportedMediaType`: a body is sent with another Content-Type than application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessment/{AnalysisId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhook delivery log of an assessment (extension)
         * @description Not in the original specification. Every attempt: when, how long, the receiver's status code or why it failed (without internal addresses), and whether it was the automatic one at completion or a manual redelivery. Empty before completion. Another tenant's assessment is 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The AnalysisId. */
                    AnalysisId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                AttemptedAt: string | null;
                                /** Format: date-time */
                                CreatedAt: string;
                                DurationMs: number | null;
                                /** @description Why it failed, without the addresses a host name resolved to. */
                                Error: string | null;
                                Id: string;
                                /** @description Automatic: at completion. Manual: a redelivery an operator asked for. Release: a Greenhouse order PATCHed again because the candidate released withheld results. A retry has the kind of the attempt it retries. */
                                Kind: "Automatic" | "Manual" | "Release";
                                ResponseStatus: number | null;
                                Status: "Pending" | "Sending" | "Delivered" | "Failed" | "Unknown";
                            }[];
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's assessments (extension)
         * @description Not in the original specification. Your own assessments, each as the lookup shows it, at most Limit a page, filtered by any of the parameters together. Walk the pages by passing each Cursor back; the last page has Cursor null. Without UpdatedSince a walk sees each assessment once, and ones created during it at its end; with UpdatedSince one that changes during the walk comes again at its end. To reconcile, walk from your last walk's start, less a minute. See docs/API.md.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only assessments completed at or after this instant (ISO 8601 with a time zone). Ordered by CompletedAt. */
                    CompletedSince?: string;
                    /** @description The previous page's Cursor, unchanged, with the same filters. */
                    Cursor?: string;
                    /** @description Only this candidate's assessments. */
                    ExternalId?: string;
                    /** @description At most this many a page: 1 to 100, default 50. */
                    Limit?: number;
                    /** @description Only assessments with this Status (as the lookup shows it). */
                    Status?: "Created" | "Started" | "Completed" | "Expired" | "Cancelled";
                    /** @description Only assessments changed at or after this instant (ISO 8601 with a time zone): created, started, answered, completed, cancelled or released. Expiry is no change: ask Status=Expired. Ordered by that change. */
                    UpdatedSince?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                Assessments: {
                                    AnalysisId: string;
                                    /** @description Statements answered so far: the candidate's progress. */
                                    AnsweredItems: number;
                                    AssessmentType: number;
                                    AssessmentUrl: string;
                                    CancelledAt: string | null;
                                    CompletedAt: string | null;
                                    /** @description Once completed: 0–100, the within-person correlation of designated item pairs, or of the norm group's synonym pairs (0 when negative or without variation); see docs/RESULTS.md "Results". */
                                    ConsistencyScore: number | null;
                                    /** @description Once completed: the instrument's content version it was taken in. Null before completion, and for assessments completed before Assay recorded it. */
                                    ContentVersion: string | null;
                                    /** Format: date-time */
                                    CreatedAt: string;
                                    ExpiresAt: string | null;
                                    ExternalId: string;
                                    /** @description Once completed: StraightLining, Speeding, LowConsistency, EvenOdd, Synonyms, LongString, Outlier; see docs/RESULTS.md "Results". */
                                    IntegrityFlags: null | ("StraightLining" | "Speeding" | "LowConsistency" | "EvenOdd" | "Synonyms" | "LongString" | "Outlier")[];
                                    /** @description Once completed: the language the portal showed when the candidate finished. Null before completion, and for assessments completed before Assay recorded it. */
                                    Language: "nl" | "en" | null;
                                    /** @description The norm group the stens and percentiles are against: the one in force when the assessment was completed. Null when none was. */
                                    NormGroup: null | {
                                        CollectedFrom: string | null;
                                        CollectedTo: string | null;
                                        Id: string;
                                        /** @description True for the shipped example: simulated, never for selection decisions. */
                                        Illustrative: boolean;
                                        Name: string;
                                        SampleSize: number;
                                        Source: string;
                                    };
                                    /** @description Once completed: a signed link to the report on the portal domain, for people without API credentials. It expires (REPORT_LINK_DAYS). */
                                    ReportUrl: string | null;
                                    /** @description Whether the candidate must release the results before they are shown (a portal setting), and their answer. */
                                    ResultsRelease: "NotRequired" | "Pending" | "Released" | "Declined";
                                    Scores: null | {
                                        Items: number;
                                        Mean: number;
                                        Name: string;
                                        Raw: number;
                                        Scale: string;
                                    }[];
                                    StartedAt: string | null;
                                    /** @description Expired: not completed before ExpiresAt. Cancelled: withdrawn with DELETE. Both are final; no webhook is sent for them. */
                                    Status: "Created" | "Started" | "Completed" | "Expired" | "Cancelled";
                                    /** @description Statements in the questionnaire. */
                                    TotalItems: number;
                                    Webhook: null | {
                                        AttemptedAt: string | null;
                                        /** @description Attempts so far: the automatic one and any manual redeliveries. The log: GET …/webhooks. */
                                        Attempts: number;
                                        DurationMs: number | null;
                                        Error: string | null;
                                        ResponseStatus: number | null;
                                        Status: "NotSent" | "Pending" | "Sending" | "Delivered" | "Failed" | "Unknown";
                                    };
                                }[];
                                /** @description Pass it as Cursor for the next page; null on the last page. */
                                Cursor: string | null;
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/assessmenttypes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The instruments a caller may order (extension)
         * @description Not in the original specification. Per instrument: its AssessmentType and code, its name per language, item count (for a shortened form, against the published one), estimated minutes, languages (with what a result taken in each must say), scales (each with how it differs between women and men in that norm group), and the norm group an assessment completed now would be scored against for the caller's portal, with its N.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                /** @description What `POST /api/anonymous/assessment` takes as AssessmentType. */
                                AssessmentType: number;
                                /** @description The instrument code, e.g. TMA170 or SPI. */
                                Code: string;
                                /** @description The content version a completion now records. */
                                ContentVersion: string;
                                /** @description About how long the questionnaire takes. */
                                EstimatedMinutes: number;
                                /** @description How many statements the candidate answers. */
                                ItemCount: number;
                                /** @description The languages a candidate can take it in. */
                                Languages: {
                                    Language: "nl" | "en";
                                    /** @description What every result taken in this language says (in `Note` and in the report), e.g. that a translation has no norms of its own; null when nothing. */
                                    Note: string | null;
                                    /** @description True for a translation of the source text made for Assay; false for the source text, or where the instrument records no source. */
                                    Translation: boolean;
                                }[];
                                /** @description The instrument name, per language. */
                                Name: {
                                    en: string;
                                    nl: string;
                                };
                                /** @description The norm group an assessment completed now would be scored against, for the caller's portal: its own choice, else the instrument's default. Null when none: stens and percentiles then stay empty. */
                                NormGroup: null | {
                                    Id: string;
                                    /** @description True for a simulated example: never for selection decisions. */
                                    Illustrative: boolean;
                                    Name: string;
                                    /** @description N: the respondents the group was built from. */
                                    SampleSize: number;
                                };
                                /** @description Where the instrument is a shortened form of a published inventory (the SPI): what that inventory has. Null otherwise. */
                                PublishedForm: null | {
                                    /** @description The published form's item count. */
                                    Items: number;
                                    /** @description Its scales this form does not have (e.g. the SPI's Conservatism, which asked about religion and politics), with their item counts. */
                                    LeftOut: {
                                        Items: number;
                                        Key: string;
                                    }[];
                                    /** @description N of the norm sample each scale's R was computed in. */
                                    SampleSize: number;
                                    /** @description The published form's scale count. */
                                    Scales: number;
                                    /** @description The published scoring keys, e.g. psychTools::spi.keys. */
                                    Source: string;
                                };
                                /** @description The answers each statement takes, from Min to Max: raw scale scores lie between them. */
                                ResponseScale: {
                                    Max: number;
                                    Min: number;
                                };
                                /** @description Every scale a result reports, in the order of the result lists. */
                                Scales: {
                                    /** @description The `ExternalCode` of the result lists, e.g. SPI_TRUST. */
                                    ExternalCode: string;
                                    /** @description How the scale differs between women and men in `NormGroup` (the results' `Fairness` item): d with its 95% interval and the four-fifths ratios at sten 7 or more and 4 or less; a ratio below 0.80 means a cut on this scale screens out one gender more than the other. Null when the group records no gender. */
                                    Fairness: null | {
                                        /** @description Cohen's d, women minus men, in pooled SDs of the raw score (three decimals); null below 30 of either gender. */
                                        D: number | null;
                                        /** @description The upper bound of d's 95% interval; null where the group does not record it. */
                                        DHigh: number | null;
                                        /** @description The lower bound of d's 95% interval; null where the group does not record it. */
                                        DLow: number | null;
                                        /** @description The four-fifths ratio at sten 7 or more: the lower of the two genders’ shares over the higher (≤ 1, three decimals). Below 0.80, a cut there screens out one gender more than the other. */
                                        RatioHigh: number | null;
                                        /** @description The same at sten 4 or less, where a cut screens out the low scorers; null where the group does not record it. */
                                        RatioLow: number | null;
                                    };
                                    /** @description The scale number: the `ID` of the result lists. */
                                    ID: number;
                                    /** @description How many of the statements asked count for this scale. */
                                    Items: number;
                                    /** @description The scale name, per language. */
                                    Name: {
                                        en: string;
                                        nl: string;
                                    };
                                    /** @description Where the instrument is a shortened form of a published inventory (`PublishedForm`): the scale's item count there, and R, the correlation of its score as shipped with its published score in the norm sample. Null otherwise. */
                                    Published: null | {
                                        Items: number;
                                        R: number;
                                    };
                                }[];
                            }[];
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/candidate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a candidate */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choosing (1 to 255 printable ASCII characters, such as a UUID) that makes a retry of this create safe: the same key with the same request within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. Keys belong to the API key that sent them. */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description Property names match case-insensitively; unknown properties are ignored. */
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        Email: string;
                        /** @description Caller-supplied candidate id, unique across the system. */
                        ExternalId: string;
                        /** @description No control or bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C). */
                        FirstName: string;
                        /**
                         * @description 0 unknown, 1 male, 2 female, 3 neutral.
                         * @default 0
                         */
                        Gender?: number;
                        /** @description No control or bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C). */
                        LastName: string;
                        /**
                         * @description When true the candidate re-enters their details before starting.
                         * @default false
                         */
                        NeedsToUpdateData?: boolean;
                        /** @description Name preposition such as "van der"; "" when none. No control or bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C). */
                        Preposition: string;
                    };
                };
            };
            responses: {
                /** @description Created, in the success envelope */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                ExternalId: string;
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 201;
                        };
                    };
                };
                /** @description `ExternalIdAlreadyExists`: a candidate with this ExternalId exists (in any tenant); `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read; `InvalidJson`: the body is not valid JSON, or is empty */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `IdempotencyKeyInUse`: a request with this Idempotency-Key is still in progress; see Retry-After */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `PayloadTooLarge`: the body is over 64 KiB */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `UnsupportedMediaType`: a body is sent with another Content-Type than application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `IdempotencyKeyReused`: this Idempotency-Key was used in the last 24 hours with another request (method, path or body) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/anonymous/candidate/{ExternalId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Everything held about a candidate (extension)
         * @description Not in the original specification. For a data subject's access request: the candidate's fields, every assessment with its status, answers, time per page, results and webhook outcome (never the webhook credentials), and when retention will erase it all. Answers and results stay out while the candidate has not released them (a portal setting), and until the candidate finishes (time per page too). Tenant-scoped: another tenant's candidate is 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Caller-supplied candidate id, unique across the system. */
                    ExternalId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                Assessments: {
                                    AnalysisId: string;
                                    /** @description Null while the candidate has not released the results (a portal setting). */
                                    Answers: null | {
                                        AnsweredAt: string;
                                        ItemId: string;
                                        Value: number;
                                    }[];
                                    AssessmentType: number;
                                    CancelledAt: string | null;
                                    CompletedAt: string | null;
                                    /** @description Once completed: the instrument's content version it was taken in. Null before completion, and for assessments completed before Assay recorded it. */
                                    ContentVersion: string | null;
                                    /** Format: date-time */
                                    CreatedAt: string;
                                    ExpiresAt: string | null;
                                    /** @description Once completed: the language the portal showed when the candidate finished. Null before completion, and for assessments completed before Assay recorded it. */
                                    Language: "nl" | "en" | null;
                                    Results: null | {
                                        Competences: {
                                            Code: string;
                                            Name: string;
                                            Percentile: number | null;
                                            Raw: number;
                                            Sten: number | null;
                                            /** @description Null without a sten, or when the norm group records no reliability. */
                                            StenBand: {
                                                High: number;
                                                Low: number;
                                            } | null;
                                        }[];
                                        ConsistencyScore: number | null;
                                        /** @description Signs that the answers may not describe the candidate, each naming the check that fired (EvenOdd, Synonyms, LongString and Outlier are careless-responding indices calibrated on the norm group); see docs/RESULTS.md "Results". Empty when none. */
                                        IntegrityFlags: ("StraightLining" | "Speeding" | "LowConsistency" | "EvenOdd" | "Synonyms" | "LongString" | "Outlier")[];
                                        /** @description The norm group the stens and percentiles are against: the one in force when the assessment was completed. Null when none was. */
                                        NormGroup: null | {
                                            CollectedFrom: string | null;
                                            CollectedTo: string | null;
                                            Id: string;
                                            /** @description True for the shipped example: simulated, never for selection decisions. */
                                            Illustrative: boolean;
                                            Name: string;
                                            SampleSize: number;
                                            Source: string;
                                        };
                                        Scales: {
                                            Code: string;
                                            Name: string;
                                            Percentile: number | null;
                                            Raw: number;
                                            Sten: number | null;
                                            /** @description Null without a sten, or when the norm group records no reliability. */
                                            StenBand: {
                                                High: number;
                                                Low: number;
                                            } | null;
                                        }[];
                                    };
                                    /** @description Whether the candidate must release the results before they are shown (a portal setting), and their answer. */
                                    ResultsRelease: "NotRequired" | "Pending" | "Released" | "Declined";
                                    ReturnUrl: string | null;
                                    SecondsPerPage: {
                                        Page: number;
                                        Seconds: number;
                                    }[];
                                    StartedAt: string | null;
                                    Status: string;
                                    Webhook: null | {
                                        AttemptedAt: string | null;
                                        Attempts: number;
                                        DurationMs: number | null;
                                        Error: string | null;
                                        ResponseStatus: number | null;
                                        Status: string;
                                    };
                                    /** @description Without the webhook credentials, which are never returned. */
                                    WebhookUrl: string | null;
                                }[];
                                Candidate: {
                                    /** Format: date-time */
                                    CreatedAt: string;
                                    Email: string;
                                    ExternalId: string;
                                    FirstName: string;
                                    Gender: number;
                                    LastName: string;
                                    NeedsToUpdateData: boolean;
                                    Preposition: string;
                                    /** Format: date-time */
                                    UpdatedAt: string;
                                };
                                Retention: {
                                    /** @description RETENTION_DAYS, or the tenant's own. */
                                    Days: number;
                                    /** @description When the retention sweep will erase this candidate; null while an assessment is open and has no expiry. */
                                    ErasedAfter: string | null;
                                };
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Erase a candidate's personal data (extension)
         * @description Not in the original specification. Removes the candidate's fields and every assessment of theirs: answers, scores, page times, reports and their share links, webhook credentials and outcomes. The assessment links stop working and the ExternalId may be used again. An audit row keeps when, by which API key and how much, with no personal data. Tenant-scoped: another tenant's candidate is 404.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Caller-supplied candidate id, unique across the system. */
                    ExternalId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK, in the success envelope */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            Data: {
                                ErasedAnswers: number;
                                ErasedAssessments: number;
                                ExternalId: string;
                            };
                            Message: null;
                            /** @enum {integer} */
                            StatusCode: 200;
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/candidateanalysisresult/{token}/{culture}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Results of an assessment (the vendor's classic endpoint)
         * @description Field names and types as in TMA's public documentation of the classic API. `culture` picks the language of each Description: nl-NL, en-GB, en-US, case-insensitive; any other is a 400. Until the candidate finishes: Done false, DoneDate null, empty lists. Assay adds NormGroup, Note, IntegrityFlags and ReportUrl. When the portal asks candidates to release their results, the lists stay empty until they do. Only the caller's own tenant's assessments are visible; others are 404.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description nl-NL, en-GB or en-US (case-insensitive): the language of Description. */
                    culture: string;
                    /** @description The AnalysisId. */
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The results, in TMA's own format (no envelope) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            AnalysisToken: string;
                            /** @description Per competence: sten 1–10 against the norm group. Empty without a norm group. */
                            AptitudeScores: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description Per competence: percentile 0–100 against the norm group. Empty without a norm group. */
                            AptitudeScoresPercentage: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description Per competence: the raw score, the weighted mean of its scales on the response scale of the instrument. */
                            AptitudeScoresScale: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description The candidate's ExternalId. */
                            CandidateIdentifier: string;
                            /** @description Integer 0–100 as a string: the within-person correlation of designated item pairs × 100 (0 when negative or without variation). "" when not finished. */
                            ConsistencyScore: string;
                            Done: boolean;
                            DoneDate: string | null;
                            /** @description Assay's: per scale of NormScores, how it differs between women and men in the norm group (docs/PSYCHOMETRICS.md "Adverse impact"). Empty when the lists are, or when the group records no gender. */
                            Fairness: {
                                /** @description Cohen's d, women minus men, in pooled SDs of the raw score (three decimals); null below 30 of either gender. */
                                D: number | null;
                                /** @description The upper bound of d's 95% interval; null where the group does not record it. */
                                DHigh: number | null;
                                /** @description The lower bound of d's 95% interval; null where the group does not record it. */
                                DLow: number | null;
                                ExternalCode: string;
                                /** @description The scale number, as in NormScores. */
                                ID: number;
                                /** @description The four-fifths ratio at sten 7 or more: the lower of the two genders’ shares over the higher (≤ 1, three decimals). Below 0.80, a cut there screens out one gender more than the other. */
                                RatioHigh: number | null;
                                /** @description The same at sten 4 or less, where a cut screens out the low scorers; null where the group does not record it. */
                                RatioLow: number | null;
                            }[];
                            /** @description Signs that the answers may not describe the candidate, each naming the check that fired (EvenOdd, Synonyms, LongString and Outlier are careless-responding indices calibrated on the norm group); see docs/RESULTS.md "Results". Empty when none. */
                            IntegrityFlags: ("StraightLining" | "Speeding" | "LowConsistency" | "EvenOdd" | "Synonyms" | "LongString" | "Outlier")[];
                            /** @description The norm group the stens and percentiles are against: the one in force when the assessment was completed. Null when none was. */
                            NormGroup: null | {
                                CollectedFrom: string | null;
                                CollectedTo: string | null;
                                Id: string;
                                /** @description True for the shipped example: simulated, never for selection decisions. */
                                Illustrative: boolean;
                                Name: string;
                                SampleSize: number;
                                Source: string;
                            };
                            /** @description Per scale: sten 1–10 against the norm group. Empty without a norm group. */
                            NormScores: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description Per scale: the raw score, the mean of its keyed items on the response scale of the instrument. */
                            NormScoreScales: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description Per scale: percentile 0–100 against the norm group. Empty without a norm group. */
                            NormScoresPercentage: {
                                /** @description The scale or competence name in the culture's language. */
                                Description: string;
                                /** @description Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions. */
                                ExternalCode: string;
                                /** @description Stable integer: the scale number (1–26) or the competence id. Never reused. */
                                ID: number;
                                /** @description Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100. */
                                Value: number;
                            }[];
                            /** @description Why lists are empty (no norm group; an illustrative group, whose simulated stens never fill them; results not released by the candidate), and, with every result that has competences, that they are a model without validation evidence. Null before completion. */
                            Note: string | null;
                            /** @description Once completed: a signed link to the report on the portal domain, for people without API credentials. It expires (REPORT_LINK_DAYS). */
                            ReportUrl: string | null;
                            /** @description Assay's: the precision of each sten in NormScores and AptitudeScores (same ID and ExternalCode): its 90% band. Empty when the lists are, or when the norm group records no reliability (precision unknown). */
                            StenBands: {
                                ExternalCode: string;
                                High: number;
                                ID: number;
                                Low: number;
                                Sten: number;
                            }[];
                        };
                    };
                };
                /** @description `ValidationError`: a field breaks a rule (innererror names the field and the rule), or the URL cannot be read */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InvalidApiKey`: the api-key header is missing or not a valid key (checked first); `InvalidCredentials`: the Basic credentials are missing or wrong, or belong to another tenant than the key */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `NotFound`: no such resource of yours */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `TooManyRequests`: a limit was hit (failed authentications from the caller's address, the API key's requests a minute, invitations to one address an hour or per tenant a minute, or a route's own such as redeliveries or a tenant's share of PDFs waiting to be rendered); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `InternalError`: a bug; logged with the request id */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description Always 200 while the process runs, however busy.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Up (healthz) or ready (readyz) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 while this instance can serve; 503 while the database is unreachable or it is shutting down.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Up (healthz) or ready (readyz) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            status: string;
                        };
                    };
                };
                /** @description `ServiceUnavailable`: the database is unreachable or the server is shedding load; see Retry-After */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error, from every endpoint, has this shape. */
        ErrorEnvelope: {
            error: {
                /**
                 * @description Machine-readable code; each operation lists the ones it returns, and when.
                 * @enum {unknown}
                 */
                code: "ExternalIdAlreadyExists" | "NoCandidateFound" | "InvalidAssessmentType" | "ValidationError" | "WebhookUrlNotAllowed" | "InvalidJson" | "UnsupportedMediaType" | "PayloadTooLarge" | "InvalidApiKey" | "InvalidCredentials" | "NotFound" | "ResultsNotReleased" | "AlreadyCompleted" | "NotRedeliverable" | "NotSendable" | "IdempotencyKeyInUse" | "IdempotencyKeyReused" | "TooManyRequests" | "ServiceUnavailable" | "InternalError";
                innererror: {
                    [key: string]: unknown;
                };
                message: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
