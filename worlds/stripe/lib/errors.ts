/**
 * Stripe's error envelope. A `StripeError` thrown by an operation rolls its call back and becomes the reply
 * `{ error: { type, code, message, param, … } }` with its HTTP status. Failures Stripe records (a declined card
 * leaves a failed charge and a payment intent with `last_payment_error`) are not thrown: the operation returns
 * `failed(status, error)` and its writes are kept.
 */
import { ToolError } from 'seahaven';

export interface StripeErrorBody {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
  setup_intent?: unknown;
  advice_code?: string;
}

/** The `details` a thrown StripeError carries through the call's failure record. */
export interface StripeFailureDetails {
  status: number;
  error: StripeErrorBody;
}

function withDocUrl(error: StripeErrorBody): StripeErrorBody {
  if (error.code === undefined || error.doc_url !== undefined) return error;
  return {
    ...error,
    doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, '-')}`,
  };
}

export class StripeError extends ToolError {
  readonly status: number;
  readonly error: StripeErrorBody;
  constructor(status: number, error: StripeErrorBody) {
    const body = withDocUrl(error);
    super('stripe_error', body.message, {
      status,
      error: body,
    } satisfies StripeFailureDetails as unknown as Record<string, unknown>);
    this.status = status;
    this.error = body;
  }
}

/** A committed failure: the operation's writes stay, the client gets this status and error. */
export interface Failed {
  readonly failed: true;
  readonly status: number;
  readonly error: StripeErrorBody;
}

export function failed(status: number, error: StripeErrorBody): Failed {
  return { failed: true, status, error: withDocUrl(error) };
}

export function isFailed(v: unknown): v is Failed {
  return (
    v !== null &&
    typeof v === 'object' &&
    (v as { failed?: unknown }).failed === true &&
    typeof (v as Failed).status === 'number'
  );
}

/** 400 `invalid_request_error`. */
export function invalidRequest(message: string, param?: string, code?: string): StripeError {
  return new StripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });
}

/** 404 `resource_missing`: `No such customer: 'cus_123'`. */
export function resourceMissing(what: string, id: string, param = 'id'): StripeError {
  return new StripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${id}'`,
    param,
  });
}

/** 400 `parameter_missing`. */
export function parameterMissing(param: string): StripeError {
  return new StripeError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    message: `Missing required param: ${param}.`,
    param,
  });
}

/** 400 for an object whose state does not allow the action (`payment_intent_unexpected_state`, …). */
export function unexpectedState(code: string, message: string, param?: string): StripeError {
  return new StripeError(400, {
    type: 'invalid_request_error',
    code,
    message,
    ...(param ? { param } : {}),
  });
}
