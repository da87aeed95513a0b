kernel void phases(global uint *data, uint phases)
{
    transmit uint phase = 0;
    while (phase < phases) {
        switch (phase % 2) {
        case 0:
            data[get_global_id(0)] += 1;
            resizing_global_barrier();
            break;
        default:
            global_barrier();
        }
        phase++;
    }
}
