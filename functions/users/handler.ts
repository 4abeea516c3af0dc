import * as users from '@plac/shared/contracts/users';
import { httpApi } from '../platform/http';
import { confirmEmailChange } from './login-changes';
import * as service from './service';

export const handler = httpApi(users, {
  profile: async ({ principal }) => service.profile(principal),
  updateProfile: async ({ principal, body, sid }) => service.updateProfile(principal, body, sid),
  confirmEmail: async ({ body }) => confirmEmailChange(body.token),
  listUsers: async ({ query, principal }) => service.list(query, principal),
  getUser: async ({ params }) => service.get(params.id),
  createUser: async ({ body, principal }) => service.create(body, principal),
  updateUser: async ({ params, body, principal }) => service.update(params.id, body, principal),
  deleteUser: async ({ params, principal }) => service.remove(params.id, principal),
  listRoles: async () => service.rolesList(),
});
