import type { AnyContract } from '@plac/shared/contracts';
import { MESSAGES } from '@plac/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { apiQueryKey } from './api';
import { toast } from './toast';

/**
 * What an edit form does once its record is saved: says so ('Registro salvo com sucesso.' unless
 * said), forgets every cached answer of `record` (the next opening of a form must start from a fresh
 * answer, not from this one), refreshes the `list` the user goes back to, and leaves.
 */
export function useRecordSaved(record: AnyContract, list: AnyContract, leave: () => void): (text?: string) => void {
  const queryClient = useQueryClient();
  return (text = MESSAGES.registroSalvo) => {
    toast.success(text);
    queryClient.removeQueries({ queryKey: apiQueryKey(record) });
    void queryClient.invalidateQueries({ queryKey: apiQueryKey(list) });
    leave();
  };
}
