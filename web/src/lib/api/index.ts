export { callApi, callApiWithStatus, getMtlsBaseUrl, resetMtlsBaseUrl, toQueryString } from './client';
export type { ApiInput, ApiResult, CallArgs, CallOptions } from './client';
export { ApiError, fieldErrorsOf, isApiError, reportApiError } from './errors';
export type { FieldErrors } from './errors';
export { apiQueryKey, useApiMutation, useApiQuery } from './hooks';
export type { ApiMutationOptions, ApiQueryKey, ApiQueryOptions } from './hooks';
export { useServerFieldErrors, withoutFields } from './fieldErrors';
