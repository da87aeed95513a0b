/* channel.cl: the channel's echo kernel (channel.c times the host <-> kernel round trip with it).
 * Local id 0 of its one group copies every new value the host writes to ECHO_IN into ECHO_OUT,
 * until it has answered `rounds` of them. */
kernel void coop_echo(COOP_PARAMS, uint rounds)
{
    if (coop_local_linear_id() != 0)
        return;
    for (uint last = 0; last != rounds;) {
        uint value = coop_host_load(&coop_chan_[COOP_CHAN_ECHO_IN]);
        if (value != last) {
            coop_host_store(&coop_chan_[COOP_CHAN_ECHO_OUT], value);
            last = value;
        }
    }
}
