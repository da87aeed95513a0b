transmit int orphan = 3;
kernel void k(global uint *data) {
    for (;;) { offer_kill(); resizing_global_barrier(); ) }
    kernel void inner() { }
}
