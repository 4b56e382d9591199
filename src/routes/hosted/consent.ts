/** Hosted bank consent page: GET/POST /consent/:token (filled in by the AIS work). */
import type { FastifyInstance } from 'fastify';

export async function consentPages(_app: FastifyInstance): Promise<void> {}
