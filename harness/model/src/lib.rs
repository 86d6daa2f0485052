//! Golden model of the 1RMA NIC and fabric
