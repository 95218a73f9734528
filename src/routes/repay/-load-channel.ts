/**
 * The channel pages' loader, imported by their routes when one loads: a file of src/routes (the `-` keeps it
 * from being a route), so, like a route's component, it is not part of the home page's JavaScript; it carries
 * the channels' reference data (domain/payments/channels.ts, with every channel's steps).
 */
export { loadChannel } from '../../features/repay/load-channel'
