/**
 * The checkout page's loader, imported by its route when it loads: a file of src/routes (the `-` keeps it from
 * being a route), so, like a route's component, it is not part of the home page's JavaScript.
 */
export { loadCheckout } from '../../features/repayment/checkout-loader'
