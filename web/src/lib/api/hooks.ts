import {
  useMutation,
  useQuery,
  type UseMutationOptions,
  type UseMutationResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { AnyContract, ResponseOf } from '@plac/shared/contracts';
import { send, type ApiInput } from './client';
import type { ApiError } from './errors';

/**
 * react-query hooks generated from the contracts. Query keys are `[contract.id, input]`, so
 * `queryClient.invalidateQueries({ queryKey: apiQueryKey(contract) })` refreshes every call of an
 * endpoint.
 */

export type ApiQueryKey = readonly [string, unknown?];

export function apiQueryKey<C extends AnyContract>(contract: C, input?: ApiInput<C>): ApiQueryKey {
  return input === undefined ? [contract.id] : [contract.id, input];
}

export type ApiQueryOptions<C extends AnyContract, TData = ResponseOf<C>> = Omit<
  UseQueryOptions<ResponseOf<C>, ApiError, TData, ApiQueryKey>,
  'queryKey' | 'queryFn'
> & {
  /** false: do not toast failures (token failures still end the session). */
  notify?: boolean;
};

/** Reads an endpoint; `input` is `{}` for an endpoint without parameters. */
export function useApiQuery<C extends AnyContract, TData = ResponseOf<C>>(
  contract: C,
  input: ApiInput<C>,
  options: ApiQueryOptions<C, TData> = {},
): UseQueryResult<TData, ApiError> {
  const { notify, ...rest } = options;
  return useQuery<ResponseOf<C>, ApiError, TData, ApiQueryKey>({
    ...rest,
    queryKey: apiQueryKey(contract, input),
    queryFn: async ({ signal }) => {
      const result = await send(contract, { ...(input as object), signal, notify: notify ?? true });
      return result.data as ResponseOf<C>;
    },
  });
}

export type ApiMutationOptions<C extends AnyContract, TContext = unknown> = Omit<
  UseMutationOptions<ResponseOf<C>, ApiError, ApiInput<C>, TContext>,
  'mutationFn'
> & {
  notify?: boolean;
};

/**
 * Writes through an endpoint: `mutate({ params, body })`. Forms show `error.fieldErrors` beside the
 * fields (FieldError) in addition to the toast.
 */
export function useApiMutation<C extends AnyContract, TContext = unknown>(
  contract: C,
  options: ApiMutationOptions<C, TContext> = {},
): UseMutationResult<ResponseOf<C>, ApiError, ApiInput<C>, TContext> {
  const { notify, ...rest } = options;
  return useMutation<ResponseOf<C>, ApiError, ApiInput<C>, TContext>({
    ...rest,
    mutationFn: async (input) => {
      const result = await send(contract, { ...(input as object), notify: notify ?? true });
      return result.data as ResponseOf<C>;
    },
  });
}
